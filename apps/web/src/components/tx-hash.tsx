import { useTranslation } from 'react-i18next';
import { useAppConfig } from '../lib/app-config.ts';
import { txUrl } from '../lib/explorer.ts';
import { shortAddress } from '../lib/format.ts';
import { Icon } from './icon.tsx';
import './tx-hash.css';

/** A transaction hash, shortened: a link to the block explorer when one is configured, else plain text. */
export function TxHash({ hash }: { hash: string }) {
  const { t } = useTranslation();
  const config = useAppConfig();
  const url = txUrl(config.data?.chain.explorer_url, hash);
  const text = shortAddress(hash, 10, 8);
  if (!url) {
    return (
      <span className="tx-hash mono" title={hash}>
        {text}
      </span>
    );
  }
  return (
    <a className="tx-hash tx-hash--link mono" href={url} target="_blank" rel="noopener noreferrer" aria-label={t('chain.viewTx', { hash: text })}>
      {text}
      <Icon name="external" size={13} />
    </a>
  );
}
