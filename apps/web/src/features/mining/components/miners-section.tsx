import { useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import type { ListedMinerKind } from '@nadi/api/mining';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { Segmented } from '../../../components/segmented.tsx';
import { useOverview } from '../../../lib/mining-overview.ts';
import { useMiners } from '../api/get-miners.ts';
import { MinerCard } from './miner-card.tsx';
import moneyStyles from '../../../components/money.module.css';
import styles from './mining.module.css';

// /mining's list of miners, below the overview: a chunk of its own (the infinite list and the cards),
// downloaded when the overview shows rather than before the screen's first figures (issue 33).

type KindFilter = ListedMinerKind | 'all';
// The contract's listedMinerKinds, written out: a value import of @nadi/api/mining would bring zod into /mining.
const kindFilters: KindFilter[] = ['all', 'device', 'destroy', 'trial'];

export default function MinersSection() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<KindFilter>('all');
  const miners = useMiners(kind === 'all' ? undefined : kind);
  // The uptime a device needs comes with the overview (same cache entry as the cards above).
  const uptimeMinBps = useOverview().data?.params.uptime_min_bps ?? null;
  return (
    <section className={styles.miningMiners} aria-labelledby="mining-miners-title">
      <h2 id="mining-miners-title" className={styles.miningSectionTitle}>
        {t('mining.miners.title')}
      </h2>
      <Segmented
        label={t('mining.miners.filter')}
        value={kind}
        options={kindFilters.map((value) => ({ value, label: t(`mining.miners.tab.${value}`) }))}
        onChange={setKind}
      />
      <div className={moneyStyles.records}>
        <InfiniteList
          query={miners}
          getKey={(miner) => miner.id}
          renderItem={(miner) => <MinerCard miner={miner} uptimeMinBps={uptimeMinBps} />}
          errorTitle={t('mining.miners.loadFailed')}
          empty={
            kind === 'all'
              ? { title: t('mining.miners.empty'), hint: t('mining.miners.emptyHint'), icon: 'cpu' }
              : { title: t('mining.miners.emptyKind'), hint: t('mining.miners.emptyKindHint'), icon: 'cpu' }
          }
        />
      </div>
    </section>
  );
}
