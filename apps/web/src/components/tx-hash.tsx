import { useTranslation } from '../lib/translator.ts';
import { useAppConfig } from '../lib/app-config.ts';
import { txUrl } from '../lib/explorer.ts';
import { shortAddress } from '../lib/format.ts';
import { Icon } from './icon.tsx';
import { cx } from '../lib/cx.ts';
import styles from './tx-hash.module.css';

/** A transaction hash, shortened: a link to the block explorer when one is configured, else plain text. */
export function TxHash({ hash }: { hash: string }) {
  const { t } = useTranslation();
  const config = useAppConfig();
  const url = txUrl(config.data?.chain.explorer_url, hash);
  const text = shortAddress(hash, 10, 8);
  if (!url) {
    return (
      <span className={cx(styles.txHash, 'mono')} title={hash}>
        {text}
      </span>
    );
  }
  return (
    <a
      className={cx(styles.txHash, styles.txHashLink, 'mono')}
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={t('chain.viewTx', { hash: text })}
    >
      {text}
      <Icon name="external" size={13} />
    </a>
  );
}
