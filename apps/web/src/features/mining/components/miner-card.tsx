import { useTranslation } from '../../../lib/translator.ts';
import type { MinerItem } from '@nadi/api/mining';
import { Icon, type IconName } from '../../../components/icon.tsx';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { formatBps, formatPower } from '../mining-format.ts';
import { budgetView, minerKindKey, minerStatusView, payMethodKey } from '../miner-view.ts';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './mining.module.css';

const kindIcons: Record<MinerItem['kind'], IconName> = { device: 'cpu', destroy: 'flame', trial: 'spark', node: 'network', pledge: 'coins' };

/** One miner: kind and status, its power, how it was paid and when, and the device or the destroy budget. */
export function MinerCard({ miner, uptimeMinBps }: { miner: MinerItem; uptimeMinBps: number | null }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const status = minerStatusView(miner.status);
  return (
    <article className={cx(styles.miner, 'card')} data-testid="miner-card">
      <header className={styles.minerHead}>
        <span className={cx(styles.minerBadge, variant(styles, `miner__badge--${miner.kind}`))} aria-hidden="true">
          <Icon name={kindIcons[miner.kind]} size={20} />
        </span>
        <div className={styles.minerTitle}>
          <h3>{t(minerKindKey(miner.kind))}</h3>
          <p className={cx(styles.minerSub, 'mono')}>{miner.device ? miner.device.serial : `#${miner.id}`}</p>
        </div>
        <span className={cx(moneyStyles.statusChip, variant(styles, `miner-status--${status.tone}`))} data-testid="miner-status">
          {t(status.key)}
        </span>
      </header>
      <dl className={styles.minerFacts}>
        <Fact label={t('mining.miner.basePower')} value={`${formatPower(miner.base_power)} P`} isNumber />
        <Fact label={t('mining.miner.giftPower')} value={`${formatPower(miner.gift_power)} P`} isNumber />
        <Fact label={t('mining.miner.payMethod')} value={t(payMethodKey(miner.pay_method))} />
        <Fact label={t(`mining.miner.date.${miner.kind}`)} value={formatDate(miner.created_at, tag)} />
        {miner.kind === 'trial' && miner.ends_epoch !== null ? <Fact label={t('mining.miner.endsEpoch')} value={`#${miner.ends_epoch}`} isNumber /> : null}
      </dl>
      {miner.destroy ? <DestroyBudget miner={miner} destroy={miner.destroy} /> : null}
      {miner.device ? <DeviceFacts device={miner.device} uptimeMinBps={uptimeMinBps} /> : null}
    </article>
  );
}

/** A label and its value; numbers in the monospaced face, words (a pay method, a date) in the text face. */
function Fact({ label, value, isNumber = false }: { label: string; value: string; isNumber?: boolean }) {
  return (
    <div className={styles.minerFact}>
      <dt>{label}</dt>
      <dd className={isNumber ? 'mono' : undefined}>{value}</dd>
    </div>
  );
}

/** Released and remaining "power": the earnings budget (3 × the USDT destroyed) used and left. */
function DestroyBudget({ miner, destroy }: { miner: MinerItem; destroy: NonNullable<MinerItem['destroy']> }) {
  const { t } = useTranslation();
  const budget = budgetView(miner);
  const show = (text: string) => formatMoney(text, 4);
  return (
    <div className={styles.minerExtra}>
      <p className={styles.minerLine}>
        {t('mining.miner.destroyed', { amount: formatMoney(destroy.nadi, amountDigitsShown), usdt: show(destroy.usdt), price: formatMoney(destroy.price, 6) })}
      </p>
      <div className="budget">
        <span className={styles.budgetBar} aria-hidden="true">
          <span style={{ transform: `scaleX(${budget.usedShare})` }} />
        </span>
        <div className={styles.budgetLegend}>
          <span>
            {t('mining.miner.released')} <b className="mono">{show(miner.released_power)} USDT</b>
          </span>
          <span>
            {t('mining.miner.remaining')} <b className="mono">{show(miner.remaining_power)} USDT</b>
          </span>
        </div>
      </div>
    </div>
  );
}

function DeviceFacts({ device, uptimeMinBps }: { device: NonNullable<MinerItem['device']>; uptimeMinBps: number | null }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const isUptimeEnough = uptimeMinBps === null || device.uptime_bps >= uptimeMinBps;
  return (
    <div className={styles.minerExtra}>
      <dl className={styles.minerFacts}>
        <Fact label={t('mining.miner.model')} value={device.model} />
        <div className={styles.minerFact}>
          <dt>{t('mining.miner.online')}</dt>
          <dd>
            <span className={cx(styles.onlineDot, device.online && styles.onlineDotOn)} aria-hidden="true" />
            {device.online ? t('mining.miner.isOnline') : t('mining.miner.isOffline')}
          </dd>
        </div>
        <div className={styles.minerFact}>
          <dt>{t('mining.miner.uptime')}</dt>
          <dd className={cx('mono', !isUptimeEnough && styles.minerWarn)}>{formatBps(device.uptime_bps)}</dd>
        </div>
        <Fact label={t('mining.miner.lastSeen')} value={device.last_seen_at ? formatDateTime(device.last_seen_at, tag) : t('mining.miner.never')} />
      </dl>
      {uptimeMinBps !== null ? <p className={styles.minerHint}>{t('mining.miner.uptimeHint', { percent: formatBps(uptimeMinBps) })}</p> : null}
    </div>
  );
}
