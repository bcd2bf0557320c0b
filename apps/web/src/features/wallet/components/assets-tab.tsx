import { useTranslation } from '../../../lib/translator.ts';
import { formatAmount } from '@nadi/money/money';
import { assets, type Asset, type AssetsData } from '@nadi/api/wallet';
import { ActionGrid } from '../../../components/action-grid.tsx';
import { resolveTo } from '../../../lib/feature.ts';
import { formatMoney } from '../../../lib/money-format.ts';
import { walletActions } from '../../../lib/wallet-actions.ts';
import { assetTotals, findAccount, type MoneyAccountKind } from '../balances.ts';
import { amountDigitsShown } from '../../../lib/money-format.ts';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './wallet.module.css';

/** USDT values are estimates at the current price: two decimals are enough. */
const valueDigitsShown = 2;

/** The "assets" tab: total value, the wallet's actions and each asset split over the two accounts. */
export function AssetsTab({ data }: { data: AssetsData }) {
  const { t } = useTranslation();
  // The wallet is behind a session, so every action is opened signed in.
  const actions = walletActions().map((action) => ({ to: resolveTo(action, true), label: t(action.labelKey), icon: action.icon }));
  return (
    <div className={styles.walletTab}>
      <TotalCard data={data} />
      <ActionGrid actions={actions} />
      {assets.map((asset) => (
        <AssetCard key={asset} data={data} asset={asset} />
      ))}
    </div>
  );
}

function TotalCard({ data }: { data: AssetsData }) {
  const { t } = useTranslation();
  return (
    <section className={cx(styles.totalCard, 'card')}>
      <p className={styles.totalCardLabel}>{t('walletPage.totalValue')}</p>
      <p className={cx(styles.totalCardValue, 'mono')}>≈ {formatMoney(data.total_value_usdt, valueDigitsShown)}</p>
      <p className={styles.totalCardPrice}>
        <span>{t('walletPage.price', { price: formatMoney(data.nadi_price_usdt, 6) })}</span>
        <span className={cx(moneyStyles.chip, data.price_source === 'market' && moneyStyles.chipAccent)}>
          {t(`walletPage.priceSource.${data.price_source}`)}
        </span>
      </p>
    </section>
  );
}

function AssetCard({ data, asset }: { data: AssetsData; asset: Asset }) {
  const { t } = useTranslation();
  const totals = assetTotals(data, asset);
  return (
    <section className={cx(styles.assetCard, 'card')} aria-labelledby={`asset-${asset}`}>
      <header className={styles.assetCardHead}>
        <span className={cx(moneyStyles.assetBadge, variant(moneyStyles, `asset-badge--${asset.toLowerCase()}`))} aria-hidden="true">
          {asset.slice(0, 1)}
        </span>
        <h2 id={`asset-${asset}`} className={styles.assetCardName}>
          {asset}
        </h2>
        <div className={styles.assetCardTotal}>
          <span className="mono">{formatAmount(totals.units, { fractionDigitsMax: amountDigitsShown })}</span>
          <span className={styles.assetCardValue}>
            {t('walletPage.valueUsdt', { value: formatAmount(totals.valueUsdtUnits, { fractionDigitsMax: valueDigitsShown }) })}
          </span>
        </div>
      </header>
      {(['fund', 'trade'] as const).map((kind) => (
        <AccountRow key={kind} data={data} kind={kind} asset={asset} />
      ))}
    </section>
  );
}

function AccountRow({ data, kind, asset }: { data: AssetsData; kind: MoneyAccountKind; asset: Asset }) {
  const { t } = useTranslation();
  const account = findAccount(data, kind, asset);
  const frozen = account?.frozen ?? '0';
  return (
    <div className={styles.assetRow} data-testid={`asset-${kind}-${asset}`}>
      <span className={styles.assetRowLabel}>{t(`accounts.${kind}`)}</span>
      <span className={cx(styles.assetRowAmount, 'mono')} data-testid="asset-amount">
        {formatMoney(account?.available ?? '0', amountDigitsShown)}
      </span>
      {frozen !== '0' ? (
        <span className={styles.assetRowFrozen}>{t('walletPage.frozenAmount', { amount: formatMoney(frozen, amountDigitsShown) })}</span>
      ) : null}
    </div>
  );
}
