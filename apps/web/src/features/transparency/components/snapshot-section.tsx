import { useTranslation } from '../../../lib/translator.ts';
import type { SnapshotDetail } from '@nadi/api/transparency';
import { CopyButton } from '../../../components/copy-button.tsx';
import { TxHash } from '../../../components/tx-hash.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { shortHash } from '../verify-view.ts';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './transparency.module.css';

/** The latest snapshot: when and at which block it was taken, its roots, and its publication on chain. */
export function SnapshotSection({ snapshot }: { snapshot: SnapshotDetail }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  return (
    <section className={cx(styles.section, 'card')} aria-labelledby="snapshot-title" data-testid="transparency-snapshot">
      <h2 id="snapshot-title" className={styles.sectionTitle}>
        {t('transparency.snapshot.title', { id: snapshot.id })}
      </h2>
      <dl className={styles.facts}>
        <div className={styles.fact}>
          <dt>{t('transparency.snapshot.takenAt')}</dt>
          <dd>{formatDateTime(snapshot.taken_at, tag)}</dd>
        </div>
        <div className={styles.fact}>
          <dt>{t('transparency.snapshot.trigger')}</dt>
          <dd>
            {snapshot.trigger === 'epoch' && snapshot.epoch !== null
              ? t('transparency.snapshot.triggerEpoch', { epoch: snapshot.epoch })
              : t('transparency.snapshot.triggerOperator')}
          </dd>
        </div>
        <div className={styles.fact}>
          <dt>{t('transparency.snapshot.block')}</dt>
          <dd className="mono">{snapshot.block_number}</dd>
        </div>
        <div className={styles.fact}>
          <dt>{t('transparency.snapshot.users')}</dt>
          <dd className="mono">{t('transparency.snapshot.usersValue', { users: snapshot.users, leaves: snapshot.leaf_count })}</dd>
        </div>
        <RootRow label={t('transparency.snapshot.liabilitiesRoot')} root={snapshot.liabilities_root} testId="snapshot-liabilities-root" />
        {snapshot.rewards_root ? (
          <RootRow
            label={t('transparency.snapshot.rewardsRoot', { epoch: snapshot.epoch ?? '' })}
            root={snapshot.rewards_root}
            testId="snapshot-rewards-root"
          />
        ) : null}
        <div className={styles.fact}>
          <dt>{t('transparency.snapshot.publication')}</dt>
          <dd data-testid="snapshot-publication" data-state={snapshot.publication.state}>
            <PublicationState publication={snapshot.publication} />
          </dd>
        </div>
      </dl>
    </section>
  );
}

function RootRow({ label, root, testId }: { label: string; root: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className={styles.fact}>
      <dt>{label}</dt>
      <dd className={styles.rootValue}>
        <span className="mono" title={root} data-testid={testId} data-root={root}>
          {shortHash(root)}
        </span>
        <CopyButton text={root} label={t('transparency.snapshot.copyRoot')} />
      </dd>
    </div>
  );
}

function PublicationState({ publication }: { publication: SnapshotDetail['publication'] }) {
  const { t } = useTranslation();
  const chip = (
    <span className={cx(moneyStyles.statusChip, variant(moneyStyles, `status-chip--${chipOf[publication.state]}`))}>
      {t(`transparency.publication.${publication.state}`)}
    </span>
  );
  if (publication.state !== 'published' || !publication.tx_hash) return chip;
  return (
    <span className={styles.publication}>
      {chip}
      <TxHash hash={publication.tx_hash} />
      {publication.block_number ? <span className={styles.faint}>{t('transparency.publication.inBlock', { block: publication.block_number })}</span> : null}
    </span>
  );
}

const chipOf = { unpublished: 'pending', pending: 'sending', published: 'done', failed: 'failed' } as const;
