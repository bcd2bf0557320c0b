import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import type { Asset, AssetsData } from '@nadi/api/wallet';
import type { UserInfo } from '@nadi/api/user';
import { Icon, type IconName } from '../../../components/icon.tsx';
import { useAssets } from '../../../lib/get-assets.ts';
import { useOverview } from '../../../lib/mining-overview.ts';
import { formatMoney } from '../../../lib/money-format.ts';
import { formatPower } from '../../../lib/power-format.ts';
import { cx } from '../../../lib/cx.ts';
import styles from './user.module.css';

// docs/product.md section 3's user info figures: power, the fund and trade balances, the destroy
// quota, the level and the node level, each a way into its screen. They come from the queries the
// wallet and mining screens read (one cache entry each), and each query's figures load and fail on
// their own: a balance that cannot be read leaves the power and the levels on screen.

/** The fraction digits of a balance on a tile (cut, never rounded up, like every money screen). */
const tileDigits = 4;

type MoneyKind = 'fund' | 'trade';

/** What one account holds of an asset, available to spend; an account the server did not list holds nothing. */
function availableOf(data: AssetsData, kind: MoneyKind, asset: Asset): string {
  return data.accounts.find((account) => account.kind === kind && account.asset === asset)?.available ?? '0';
}

export function HoldingsCard({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const assets = useAssets();
  const overview = useOverview();
  return (
    <section className={cx(styles.holdings, 'card')} aria-labelledby="holdings-title" data-testid="user-holdings">
      <h2 id="holdings-title" className={styles.holdingsTitle}>
        {t('user.holdings.title')}
      </h2>
      <ul className={styles.holdingsGrid}>
        <HoldingTile id="power" icon="bolt" label={t('user.holdings.power')} to="/mining/power-log" query={overview}>
          {overview.data ? <Figure value={formatPower(overview.data.power)} unit="P" /> : null}
        </HoldingTile>
        <HoldingTile id="destroy-quota" icon="flame" label={t('accounts.destroy_quota')} to="/mining/destroy" query={assets}>
          {assets.data ? <Figure value={formatMoney(assets.data.destroy_quota, tileDigits)} unit="USDT" /> : null}
        </HoldingTile>
        {(['fund', 'trade'] as const).map((kind) => (
          <HoldingTile
            key={kind}
            id={kind}
            icon={kind === 'fund' ? 'wallet' : 'exchange'}
            label={t(`accounts.${kind}`)}
            to="/wallet?tab=account"
            query={assets}
          >
            {assets.data ? (
              <>
                <Figure value={formatMoney(availableOf(assets.data, kind, 'NADI'), tileDigits)} unit="NADI" asset="NADI" />
                <Figure value={formatMoney(availableOf(assets.data, kind, 'USDT'), tileDigits)} unit="USDT" asset="USDT" />
              </>
            ) : null}
          </HoldingTile>
        ))}
        <HoldingTile id="level" icon="trophy" label={t('user.holdings.level')} to="/team">
          <Figure value={t('user.level', { level: user.level })} />
        </HoldingTile>
        <HoldingTile id="node-level" icon="network" label={t('user.holdings.nodeLevel')} to="/node/mine">
          {user.node_level === null ? (
            <span className={styles.holdingNone}>{t('user.holdings.noNode')}</span>
          ) : (
            <Figure value={t('user.nodeLevel', { level: user.node_level })} />
          )}
        </HoldingTile>
      </ul>
    </section>
  );
}

/** A figure with its unit; `asset` names the line of a two-asset tile for the browser test. */
function Figure({ value, unit, asset }: { value: string; unit?: string; asset?: Asset }) {
  return (
    <span className={styles.holdingFigure} data-testid="user-holding-figure" data-asset={asset}>
      <span className={cx(styles.holdingValue, 'mono')}>{value}</span>
      {unit ? (
        <>
          {' '}
          <span className={styles.holdingUnit}>{unit}</span>
        </>
      ) : null}
    </span>
  );
}

interface TileQuery {
  data: unknown;
  isError: boolean;
  refetch: () => unknown;
}

/**
 * One figure as a link to its screen. While its query loads it shows a placeholder; when the query
 * failed with nothing read yet, "couldn't load" and a retry beside the link (a button cannot sit in a link).
 */
function HoldingTile({
  id,
  icon,
  label,
  to,
  query,
  children,
}: {
  id: string;
  icon: IconName;
  label: string;
  to: string;
  query?: TileQuery;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  // Figures once read stay on screen when a later read fails (the next one renews them).
  const shown = !query || query.data !== undefined ? 'ready' : query.isError ? 'error' : 'loading';
  return (
    <li className={styles.holding} data-testid={`user-holding-${id}`} data-state={shown}>
      <Link to={to} className={styles.holdingLink} aria-busy={shown === 'loading'}>
        <span className={styles.holdingHead}>
          <Icon name={icon} size={16} />
          <span className={styles.holdingLabel}>{label}</span>
          <Icon name="chevron" size={14} className={styles.holdingChevron} />
        </span>
        {shown === 'loading' ? (
          <>
            <span className={cx(styles.holdingSkeleton, 'skeleton')} aria-hidden="true" />
            <span className="visually-hidden">{t('common.loading')}</span>
          </>
        ) : shown === 'error' ? (
          <span className={styles.holdingError} role="alert">
            {t('user.holdings.loadFailed')}
          </span>
        ) : (
          <span className={styles.holdingFigures}>{children}</span>
        )}
      </Link>
      {shown === 'error' ? (
        <button type="button" className={cx('btn btn--ghost btn--small', styles.holdingRetry)} onClick={() => void query?.refetch()}>
          <Icon name="refresh" size={14} />
          {t('common.retry')}
        </button>
      ) : null}
    </li>
  );
}
