import { lazy, Suspense, useRef } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import type { RechargeAddressData } from '@nadi/api/onchain';
import { AddressText } from '../../../components/address-text.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { Icon } from '../../../components/icon.tsx';
import { QrCode } from '../../../components/qr-code.tsx';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { checksummed } from '../../../lib/address.ts';
import { selectContents } from '../../../lib/copy-text.ts';
import { shortAddress } from '../../../lib/format.ts';
import { useRechargeAddress } from '../api/get-recharge-address.ts';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './recharge.module.css';

// Sending from the wallet brings the wallet flow with it; it loads after the address and QR code.
const RechargeSend = lazy(() => import('./recharge-send.tsx'));

/** /recharge: the user's own deposit address, its QR code, what may be sent to it, and sending it from the wallet. */
export default function RechargePage() {
  const { t } = useTranslation();
  const address = useRechargeAddress();
  if (address.isPending) return <LoadingView />;
  if (address.isError) return <ErrorView title={t('recharge.loadFailed')} error={address.error} onRetry={() => void address.refetch()} />;
  return <RechargeView data={address.data} />;
}

function RechargeView({ data }: { data: RechargeAddressData }) {
  const { t } = useTranslation();
  const addressRef = useRef<HTMLDivElement>(null);
  const address = checksummed(data.address);
  return (
    <div className={moneyStyles.moneyScreen}>
      <section className={cx(styles.deposit, 'card')} aria-labelledby="deposit-title">
        <header className={styles.depositHead}>
          <span className={cx(moneyStyles.assetBadge, moneyStyles.assetBadgeNadi)} aria-hidden="true">
            N
          </span>
          <h2 id="deposit-title" className={styles.depositTitle}>
            {t('recharge.title', { asset: data.asset })}
          </h2>
          <span className={cx(moneyStyles.chip, moneyStyles.chipAccent)}>{data.chain_name}</span>
        </header>
        <div className={styles.depositQr}>
          <QrCode text={address} alt={t('recharge.qrAlt')} failedText={t('recharge.qrFailed')} testId="recharge-qr" />
        </div>
        <p className={styles.depositLabel}>{t('recharge.address')}</p>
        <div ref={addressRef} className={styles.depositAddress}>
          <AddressText address={address} className={styles.addressText} testId="recharge-address" />
        </div>
        <CopyButton text={address} label={t('recharge.copy')} isLabelShown onFailed={() => selectContents(addressRef.current)} testId="recharge-copy" />
      </section>
      <Suspense fallback={<LoadingView />}>
        <RechargeSend data={data} />
      </Suspense>
      <dl className={cx(moneyStyles.facts, 'card')}>
        <div className={moneyStyles.factsRow}>
          <dt>{t('recharge.network')}</dt>
          <dd>{data.chain_name}</dd>
        </div>
        <div className={moneyStyles.factsRow}>
          <dt>{t('recharge.token')}</dt>
          <dd>
            {data.asset} <span className={cx('mono', moneyStyles.factsFaint)}>{shortAddress(data.token_address)}</span>
          </dd>
        </div>
        <div className={moneyStyles.factsRow}>
          <dt>{t('recharge.confirmations')}</dt>
          <dd>{t('recharge.confirmationsValue', { blocks: data.confirmations_required })}</dd>
        </div>
      </dl>
      <div className={moneyStyles.warningBox} role="note" data-testid="recharge-warning">
        <Icon name="alert" size={20} />
        <div>
          <p className={moneyStyles.warningBoxTitle}>{t('recharge.onlyAsset', { asset: data.asset, network: data.chain_name })}</p>
          <p>{t('recharge.warning', { asset: data.asset, network: data.chain_name, blocks: data.confirmations_required })}</p>
        </div>
      </div>
      <Link to="/recharge/list" className={moneyStyles.textLink}>
        {t('nav.rechargeList')}
        <Icon name="chevron" size={16} />
      </Link>
    </div>
  );
}
