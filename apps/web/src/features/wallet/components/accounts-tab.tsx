import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import { assets, type Asset, type AssetsData } from '@nadi/api/wallet';
import { Icon } from '../../../components/icon.tsx';
import { formatMoney } from '../../../lib/money-format.ts';
import { findAccount, type MoneyAccountKind } from '../balances.ts';
import { amountDigitsShown } from '../../../lib/money-format.ts';
import { cx } from '../../../lib/cx.ts';
import styles from './wallet.module.css';

/** The "account" tab: the fund and trade accounts with available and frozen parts, and the destroy quota. */
export function AccountsTab({ data }: { data: AssetsData }) {
  const { t } = useTranslation();
  return (
    <div className={styles.walletTab}>
      {(['fund', 'trade'] as const).map((kind) => (
        <AccountCard key={kind} data={data} kind={kind} />
      ))}
      <section className={cx(styles.accountCard, 'card')}>
        <header className={styles.accountCardHead}>
          <h2 className={styles.accountCardName}>{t('accounts.destroy_quota')}</h2>
        </header>
        <p className={cx(styles.accountCardQuota, 'mono')}>
          {formatMoney(data.destroy_quota, amountDigitsShown)} <span className={styles.accountCardUnit}>USDT</span>
        </p>
        <p className={styles.accountCardHint}>{t('walletPage.destroyQuotaHint')}</p>
      </section>
    </div>
  );
}

function AccountCard({ data, kind }: { data: AssetsData; kind: MoneyAccountKind }) {
  const { t } = useTranslation();
  return (
    <section className={cx(styles.accountCard, 'card')} aria-labelledby={`account-${kind}`}>
      <header className={styles.accountCardHead}>
        <h2 id={`account-${kind}`} className={styles.accountCardName}>
          {t(`accounts.${kind}`)}
        </h2>
        <Link to={`/wallet/transfer?from=${kind}`} className={cx('btn btn--ghost btn--small', styles.accountCardAction)}>
          <Icon name="transfer" size={16} />
          {t('walletPage.transferOut')}
        </Link>
      </header>
      <table className={styles.accountTable}>
        <thead>
          <tr>
            <th scope="col">{t('walletPage.asset')}</th>
            <th scope="col">{t('walletPage.available')}</th>
            <th scope="col">{t('walletPage.frozen')}</th>
          </tr>
        </thead>
        <tbody>
          {assets.map((asset) => (
            <AccountLine key={asset} data={data} kind={kind} asset={asset} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

function AccountLine({ data, kind, asset }: { data: AssetsData; kind: MoneyAccountKind; asset: Asset }) {
  const { t } = useTranslation();
  const account = findAccount(data, kind, asset);
  return (
    <tr>
      <th scope="row">
        <span className={styles.accountTableAsset}>{asset}</span>
        <span className={styles.accountTableValue}>{t('walletPage.valueUsdt', { value: formatMoney(account?.value_usdt ?? '0', 2) })}</span>
      </th>
      <td className="mono">{formatMoney(account?.available ?? '0', amountDigitsShown)}</td>
      <td className="mono">{formatMoney(account?.frozen ?? '0', amountDigitsShown)}</td>
    </tr>
  );
}
