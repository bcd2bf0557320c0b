import { useTranslation } from '../../../lib/translator.ts';
import type { TransparencySummary } from '@nadi/api/transparency';
import { formatMoney } from '../../../lib/money-format.ts';
import { cx } from '../../../lib/cx.ts';
import styles from './transparency.module.css';

/** NADI's total supply, what was burned and what circulates. */
export function SupplySection({ supply }: { supply: TransparencySummary['supply'] }) {
  const { t } = useTranslation();
  const rows = [
    { key: 'total', value: supply.total },
    { key: 'burned', value: supply.burned },
    { key: 'circulating', value: supply.circulating },
  ] as const;
  return (
    <section className={cx(styles.section, 'card')} aria-labelledby="supply-title" data-testid="transparency-supply">
      <h2 id="supply-title" className={styles.sectionTitle}>
        {t('transparency.supply.title')}
      </h2>
      <dl className={styles.facts}>
        {rows.map((row) => (
          <div key={row.key} className={styles.fact}>
            <dt>{t(`transparency.supply.${row.key}`)}</dt>
            <dd className="mono">{formatMoney(row.value, 4)} NADI</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The pool kinds with a name of their own; any other shows its kind as the server names it. */
const namedPools = new Set(['mining_pool', 'node_pool', 'savings_pool', 'referral_pool', 'signin_pool', 'rewards_pool', 'treasury', 'fees']);

/** What each reward pool (and the treasury) holds now, from the ledger. */
export function PoolsSection({ pools }: { pools: TransparencySummary['pools'] }) {
  const { t } = useTranslation();
  return (
    <section className={cx(styles.section, 'card')} aria-labelledby="pools-title" data-testid="transparency-pools">
      <h2 id="pools-title" className={styles.sectionTitle}>
        {t('transparency.pools.title')}
      </h2>
      <p className={styles.sectionHint}>{t('transparency.pools.hint')}</p>
      {pools.length === 0 ? (
        <p className={styles.sectionHint}>{t('transparency.pools.none')}</p>
      ) : (
        <dl className={styles.facts}>
          {pools.map((pool) => (
            <div key={`${pool.kind}-${pool.asset}`} className={styles.fact}>
              <dt>{namedPools.has(pool.kind) ? t(`transparency.pools.kind.${pool.kind}`) : pool.kind.replaceAll('_', ' ')}</dt>
              <dd className="mono">
                {formatMoney(pool.balance, 4)} {pool.asset}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
