import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/translator.ts';
import type { TransparencySummary } from '@nadi/api/transparency';
import { isApiError } from '../../../lib/api-client.ts';
import { absoluteUrl, fetchAppConfig } from '../../../lib/app-config.ts';
import { requestSignIn } from '../../../lib/sign-in-request.ts';
import { useSession } from '../../../lib/use-session.ts';
import { useUserInfo } from '../../../lib/user-info.ts';
import { getBalanceProof } from '../api/get-balance-proof.ts';
import { getIncomeProof } from '../api/get-income-proof.ts';
import type { ProofTarget, VerifyOutcome } from '../verify-run.ts';
import { VerifyResultView } from './verify-result.tsx';
import { cx } from '../../../lib/cx.ts';
import styles from './transparency.module.css';

/** How many recent settled epochs the income picker offers, newest first. */
const epochChoicesMax = 30;

type VerifyRequest = { kind: 'balance' } | { kind: 'income'; epoch: number };

interface Verified {
  target: ProofTarget;
  outcome: VerifyOutcome;
  userId: number;
}

/** Fetches the user's proof, then checks it in the browser against the root the chain holds. */
async function verify(request: VerifyRequest, userId: number, contract: TransparencySummary['contract']): Promise<Verified> {
  const target: ProofTarget =
    request.kind === 'balance'
      ? { kind: 'balance', data: await getBalanceProof(undefined, { isSilent: true }) }
      : { kind: 'income', data: await getIncomeProof(request.epoch, { isSilent: true }) };
  const [{ runVerification, chainReader, fetchJsonRpc }, config] = await Promise.all([import('../verify-lazy.ts'), fetchAppConfig()]);
  const reader = async () => chainReader(fetchJsonRpc(absoluteUrl(config.chain.rpc_url)));
  const outcome = await runVerification(target, { userId, contract, reader });
  return { target, outcome, userId };
}

/** "Verify my balance" and "Verify my income for epoch n": signed in only; signed out, the way to sign in. */
export function VerifySection({ summary }: { summary: TransparencySummary }) {
  const { t } = useTranslation();
  const { isSignedIn } = useSession();
  return (
    <section className={cx(styles.section, 'card')} aria-labelledby="verify-title" data-testid="transparency-verify">
      <h2 id="verify-title" className={styles.sectionTitle}>
        {t('transparency.verify.title')}
      </h2>
      <p className={styles.sectionHint}>{t('transparency.verify.hint')}</p>
      {isSignedIn ? (
        <SignedInVerify summary={summary} />
      ) : (
        <button type="button" className="btn btn--block" onClick={() => requestSignIn()} data-testid="verify-sign-in">
          {t('transparency.verify.signIn')}
        </button>
      )}
    </section>
  );
}

function SignedInVerify({ summary }: { summary: TransparencySummary }) {
  const { t } = useTranslation();
  const user = useUserInfo();
  const epochs = summary.emission
    .map((point) => point.epoch)
    .reverse()
    .slice(0, epochChoicesMax);
  const [epoch, setEpoch] = useState<number | null>(null);
  const chosenEpoch = epoch ?? epochs[0] ?? null;
  const mutation = useMutation({
    mutationFn: (request: VerifyRequest) => {
      if (!user.data) throw new Error('no user');
      return verify(request, user.data.id, summary.contract);
    },
  });
  const isBusy = mutation.isPending || !user.data;
  return (
    <div className={styles.verify}>
      <button
        type="button"
        className="btn btn--block"
        disabled={isBusy || summary.latest === null}
        onClick={() => mutation.mutate({ kind: 'balance' })}
        data-testid="verify-balance"
      >
        {summary.latest ? t('transparency.verify.balance') : t('transparency.verify.balanceNone')}
      </button>
      {epochs.length > 0 && chosenEpoch !== null ? (
        <div className={styles.incomeRow}>
          <label className={styles.epochPicker}>
            <span>{t('transparency.verify.epoch')}</span>
            <select value={chosenEpoch} onChange={(event) => setEpoch(Number(event.target.value))} data-testid="verify-epoch">
              {epochs.map((value) => (
                <option key={value} value={value}>
                  {t('transparency.verify.epochOption', { epoch: value })}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="btn btn--ghost btn--block"
            disabled={isBusy}
            onClick={() => mutation.mutate({ kind: 'income', epoch: chosenEpoch })}
            data-testid="verify-income"
          >
            {t('transparency.verify.income', { epoch: chosenEpoch })}
          </button>
        </div>
      ) : (
        <p className={styles.sectionHint}>{t('transparency.verify.noEpochs')}</p>
      )}
      <div aria-live="polite">
        {mutation.isPending ? (
          <p className={styles.verifyBusy} role="status" data-testid="verify-busy">
            <span className="spinner spinner--small" aria-hidden="true" />
            {t('transparency.verify.busy')}
          </p>
        ) : mutation.isError ? (
          <div className={styles.verifyError} role="alert" data-testid="verify-error">
            <p>{isApiError(mutation.error) ? mutation.error.displayMessage : t('transparency.verify.failed')}</p>
          </div>
        ) : mutation.data ? (
          <VerifyResultView target={mutation.data.target} outcome={mutation.data.outcome} userId={mutation.data.userId} />
        ) : null}
      </div>
    </div>
  );
}
