import { useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import type { NodeHolding } from '@nadi/api/node';
import { Icon } from '../../../components/icon.tsx';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { formatPower } from '../../../lib/power-format.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useMyNodes } from '../api/get-my-nodes.ts';
import { payMethodOptions } from '../purchase.ts';
import { EarningsSheet } from './earnings-sheet.tsx';
import { LevelBadge, showAmount } from './node-parts.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './node.module.css';

/** /node/mine: the nodes I hold, newest first, how each was paid and what each has earned. */
export default function MyNodesPage() {
  const { t } = useTranslation();
  const nodes = useMyNodes();
  const [opened, setOpened] = useState<NodeHolding | null>(null);
  return (
    <div className={cx(moneyStyles.moneyScreen, 'my-nodes')}>
      <Link to="/node" className={cx(styles.nodeEntry, 'card')} data-testid="node-to-list">
        <span className={styles.nodeEntryIcon} aria-hidden="true">
          <Icon name="network" size={20} />
        </span>
        <span className={styles.nodeEntryText}>
          <span className={styles.nodeEntryTitle}>{t('node.mine.buyMore')}</span>
          <span className={styles.nodeEntryHint}>{t('node.mine.buyMoreHint')}</span>
        </span>
        <Icon name="chevron" size={18} className={styles.nodeEntryChevron} />
      </Link>
      <section className={moneyStyles.records} aria-label={t('nav.myNodes')}>
        <InfiniteList
          query={nodes}
          getKey={(holding) => holding.id}
          renderItem={(holding) => <HoldingCard holding={holding} onEarnings={() => setOpened(holding)} />}
          errorTitle={t('node.mine.loadFailed')}
          empty={{ title: t('node.mine.empty'), hint: t('node.mine.emptyHint'), icon: 'network' }}
        />
      </section>
      <EarningsSheet holding={opened} onClose={() => setOpened(null)} />
    </div>
  );
}

function HoldingCard({ holding, onEarnings }: { holding: NodeHolding; onEarnings: () => void }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const methodKey = payMethodOptions.find((option) => option.value === holding.pay_method)?.labelKey ?? 'node.pay.method.balance';
  return (
    <article className={cx(styles.holding, 'card')} data-testid="node-holding">
      <header className={styles.holdingHead}>
        <LevelBadge level={holding.level_id} />
        <span className={styles.tierCardName}>{holding.name}</span>
        <span className={cx(styles.holdingPower, 'mono')}>+{formatPower(holding.gift_power)} P</span>
      </header>
      <dl className={cx(styles.facts, moneyStyles.facts, styles.holdingFacts)}>
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('node.mine.paid')}</dt>
          <dd>
            <span className="mono">
              {showAmount(holding.pay_amount)} {holding.pay_asset}
            </span>
            <span className={cx(moneyStyles.chip, styles.holdingMethod)}>{t(methodKey)}</span>
          </dd>
        </div>
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('node.mine.boughtAt')}</dt>
          <dd>{formatDateTime(holding.bought_at, tag)}</dd>
        </div>
      </dl>
      <h3 className={styles.holdingEarnedTitle}>{t('node.mine.earned')}</h3>
      <dl className={styles.holdingEarned}>
        <div>
          <dt>{t('node.earnings.miningIncome')}</dt>
          <dd className="mono" data-testid="node-earned-mining">
            {showAmount(holding.earned.mining_income)} <span className={styles.holdingAsset}>NADI</span>
          </dd>
        </div>
        <div>
          <dt>{t('node.earnings.dividend')}</dt>
          <dd className="mono">
            {showAmount(holding.earned.dividend_nadi)} <span className={styles.holdingAsset}>NADI</span>
          </dd>
        </div>
        <div>
          <dt>{t('node.earnings.dividend')}</dt>
          <dd className="mono">
            {showAmount(holding.earned.dividend_usdt)} <span className={styles.holdingAsset}>USDT</span>
          </dd>
        </div>
      </dl>
      <button type="button" className="btn btn--ghost btn--small btn--block" onClick={onEarnings} data-testid="node-earnings-open">
        <Icon name="list" size={16} />
        {t('node.mine.perEpoch')}
      </button>
    </article>
  );
}
