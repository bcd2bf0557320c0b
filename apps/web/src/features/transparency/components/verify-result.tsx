import { useTranslation } from '../../../lib/translator.ts';
import { Icon } from '../../../components/icon.tsx';
import { TxHash } from '../../../components/tx-hash.tsx';
import { downloadProof } from '../proof-file.ts';
import type { ProofTarget, VerifyOutcome } from '../verify-run.ts';
import { stepLines } from '../verify-view.ts';
import { cx, variant } from '../../../lib/cx.ts';
import styles from './transparency.module.css';

/** A check's verdict, what it means, every step in words, and the proof to take away. */
export function VerifyResultView({ target, outcome, userId }: { target: ProofTarget; outcome: VerifyOutcome; userId: number }) {
  const { t } = useTranslation();
  const dims = target.data.proof.dims;
  const lines = stepLines(outcome, { userId, dims, labelOf: (dim) => t(`transparency.kind.${dim}`) });
  const subject =
    target.kind === 'balance'
      ? t('transparency.result.subjectBalance', { id: target.data.snapshot.id })
      : t('transparency.result.subjectIncome', { epoch: target.data.rewards.epoch });
  return (
    <div
      className={cx(styles.result, variant(styles, `result--${outcome.ok ? 'ok' : 'bad'}`))}
      data-testid="verify-result"
      data-ok={String(outcome.ok)}
      data-failure={outcome.failure ?? ''}
    >
      <p className={styles.resultHead}>
        <Icon name={outcome.ok ? 'check' : 'alert'} size={20} />
        <span>{outcome.ok ? t(`transparency.result.ok.${target.kind}`) : t('transparency.result.failed')}</span>
      </p>
      <p className={styles.resultSubject} data-testid="verify-subject">
        {subject}
      </p>
      <p className={styles.resultExplain} data-testid="verify-explain">
        {outcome.failure ? t(`transparency.failure.${outcome.failure}`) : t(`transparency.result.okExplain.${target.kind}`)}
      </p>
      {/* A proof without the user's leaves (not included) has no step to show. */}
      {lines.length > 0 ? (
        <>
          <h3 className={styles.stepsTitle}>{t('transparency.result.steps')}</h3>
          <ol className={styles.steps} data-testid="verify-steps">
            {lines.map((line, i) => (
              <li key={i} className={cx(styles.step, !line.ok && styles.stepBad)} data-ok={String(line.ok)} data-step={line.key}>
                <Icon name={line.ok ? 'check' : 'alert'} size={15} className={styles.stepIcon} />
                <span>
                  {t(`transparency.step.${line.key}`, line.params)}
                  {line.txHash ? (
                    <>
                      {' '}
                      <TxHash hash={line.txHash} />
                    </>
                  ) : null}
                </span>
              </li>
            ))}
          </ol>
        </>
      ) : null}
      <button type="button" className="btn btn--ghost btn--block" onClick={() => downloadProof(target)} data-testid="verify-download">
        <Icon name="deposit" size={18} />
        {t('transparency.result.download')}
      </button>
      {/* The independent verifier checks liabilities proofs (docs/transparency.md, "The verifier"). */}
      {target.kind === 'balance' ? <p className={styles.faint}>{t('transparency.result.downloadHint')}</p> : null}
    </div>
  );
}
