import { useTranslation } from 'react-i18next';
import { formatAmount } from '@nadi/money/money';
import { assets, type Asset, type AssetsData } from '@nadi/api/wallet';
import { ActionGrid } from '../../../components/action-grid.tsx';
import { resolveTo } from '../../../lib/feature.ts';
import { formatMoney } from '../../../lib/money-format.ts';
import { walletActions } from '../../../lib/wallet-actions.ts';
import { assetTotals, findAccount, type MoneyAccountKind } from '../balances.ts';
import { amountDigitsShown } from '../../../lib/money-format.ts';

/** USDT values are estimates at the current price: two decimals are enough. */
const valueDigitsShown = 2;

/** The "assets" tab: total value, the wallet's actions and each asset split over the two accounts. */
export function AssetsTab({ data }: { data: AssetsData }) {
  const { t } = useTranslation();
  // The wallet is behind a session, so every action is opened signed in.
  const actions = walletActions().map((action) => ({ to: resolveTo(action, true), label: t(action.labelKey), icon: action.icon }));
  return (
    <div className="wallet-tab">
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
    <section className="total-card card">
      <p className="total-card__label">{t('walletPage.totalValue')}</p>
      <p className="total-card__value mono">≈ {formatMoney(data.total_value_usdt, valueDigitsShown)}</p>
      <p className="total-card__price">
        <span>{t('walletPage.price', { price: formatMoney(data.nadi_price_usdt, 6) })}</span>
        <span className={`chip${data.price_source === 'market' ? ' chip--accent' : ''}`}>{t(`walletPage.priceSource.${data.price_source}`)}</span>
      </p>
    </section>
  );
}

function AssetCard({ data, asset }: { data: AssetsData; asset: Asset }) {
  const { t } = useTranslation();
  const totals = assetTotals(data, asset);
  return (
    <section className="asset-card card" aria-labelledby={`asset-${asset}`}>
      <header className="asset-card__head">
        <span className={`asset-badge asset-badge--${asset.toLowerCase()}`} aria-hidden="true">
          {asset.slice(0, 1)}
        </span>
        <h2 id={`asset-${asset}`} className="asset-card__name">
          {asset}
        </h2>
        <div className="asset-card__total">
          <span className="mono">{formatAmount(totals.units, { fractionDigitsMax: amountDigitsShown })}</span>
          <span className="asset-card__value">
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
    <div className="asset-row" data-testid={`asset-${kind}-${asset}`}>
      <span className="asset-row__label">{t(`accounts.${kind}`)}</span>
      <span className="asset-row__amount mono">{formatMoney(account?.available ?? '0', amountDigitsShown)}</span>
      {frozen !== '0' ? <span className="asset-row__frozen">{t('walletPage.frozenAmount', { amount: formatMoney(frozen, amountDigitsShown) })}</span> : null}
    </div>
  );
}
