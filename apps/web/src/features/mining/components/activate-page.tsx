import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { useSearchParams } from 'react-router';
import type { ActivationItem } from '@nadi/api/mining';
import { Icon } from '../../../components/icon.tsx';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { notify } from '../../../lib/notify.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useActivate } from '../api/activate.ts';
import { useActivations } from '../api/get-activations.ts';
import { activationProblemMessage, checkActivationCode } from '../activation-form.ts';
import { activationStatusView } from '../miner-view.ts';
import { refusalText } from '../mining-errors.ts';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './mining.module.css';

/** The outcome of the last submit: the activation the server made, or why it refused the code. */
type Outcome = { kind: 'made'; item: ActivationItem } | { kind: 'failed'; reason: string };

/** /mining/activate: bind a purchased device with the code from its box; pending until the device reports. */
export default function ActivatePage() {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const activate = useActivate();
  const activations = useActivations();
  // The mining screen's "waiting for activation" passes the device it came from; the code is still typed.
  const [search] = useSearchParams();
  const serial = search.get('serial');
  const check = checkActivationCode(code);
  const problem = !check.ok && (hasTriedSubmit || check.problem === 'TOO_LONG') ? activationProblemMessage(check.problem) : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setHasTriedSubmit(true);
    if (!check.ok || activate.isPending) return;
    activate.mutate(check.code, {
      onSuccess: (item) => {
        setOutcome({ kind: 'made', item });
        setCode('');
        setHasTriedSubmit(false);
        notify(item.status === 'success' ? t('mining.activate.succeeded') : t('mining.activate.submitted'), 'success');
      },
      onError: (error) => setOutcome({ kind: 'failed', reason: refusalText(error, t) }),
    });
  }

  return (
    <div className={moneyStyles.moneyScreen}>
      <form className={cx(styles.activateForm, 'card')} onSubmit={submit} noValidate>
        <label htmlFor="activation-code" className={cx(styles.fieldLabel, moneyStyles.fieldLabel)}>
          {t('mining.activate.label')}
        </label>
        <p className={moneyStyles.formHint}>{t('mining.activate.hint')}</p>
        {serial ? (
          <p className={moneyStyles.formHint} data-testid="activation-serial">
            {t('mining.activate.forDevice', { serial })}
          </p>
        ) : null}
        <div className={cx(moneyStyles.amountFieldBox, problem && moneyStyles.amountFieldBoxError)}>
          <input
            id="activation-code"
            data-testid="activation-code"
            className={cx(moneyStyles.amountFieldInput, 'mono')}
            value={code}
            onChange={(event) => {
              setCode(event.target.value);
              setHasTriedSubmit(false);
            }}
            placeholder={t('mining.activate.placeholder')}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            enterKeyHint="done"
            disabled={activate.isPending}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'activation-code-error' : undefined}
          />
        </div>
        {problem ? (
          <p id="activation-code-error" className={cx(styles.fieldError, moneyStyles.fieldError)} role="alert">
            {t(problem.key, problem.params)}
          </p>
        ) : null}
        <button type="submit" className="btn btn--block" data-testid="activation-submit" disabled={activate.isPending}>
          {activate.isPending ? t('mining.activate.submitting') : t('mining.activate.submit')}
        </button>
      </form>
      {outcome ? <OutcomeCard outcome={outcome} /> : null}
      <section className={moneyStyles.records} aria-labelledby="activations-title">
        <div className={styles.miningSectionHead}>
          <h2 id="activations-title" className={styles.miningSectionTitle}>
            {t('mining.activate.listTitle')}
          </h2>
          <button
            type="button"
            className="icon-btn"
            onClick={() => void activations.refetch()}
            aria-label={t('mining.refresh')}
            disabled={activations.isFetching}
          >
            <Icon name="refresh" size={18} className={activations.isFetching ? styles.isSpinning : undefined} />
          </button>
        </div>
        <InfiniteList
          query={activations}
          getKey={(item) => item.id}
          renderItem={(item) => <ActivationRow item={item} />}
          errorTitle={t('mining.activate.listFailed')}
          empty={{ title: t('mining.activate.listEmpty'), hint: t('mining.activate.listEmptyHint'), icon: 'key' }}
        />
      </section>
    </div>
  );
}

/** docs/product.md section 4: pending (refresh later to see), success, failed with its reason. */
function OutcomeCard({ outcome }: { outcome: Outcome }) {
  const { t } = useTranslation();
  const status = activationStatusView(outcome.kind === 'made' ? outcome.item.status : 'failed');
  const text =
    outcome.kind === 'failed'
      ? outcome.reason
      : outcome.item.status === 'success'
        ? t('mining.activate.succeededDetail', { serial: outcome.item.serial })
        : t('mining.activate.pendingDetail');
  return (
    <section
      className={cx(styles.activateOutcome, variant(styles, `activate-outcome--${status.tone}`))}
      role={outcome.kind === 'failed' ? 'alert' : 'status'}
      data-testid="activation-outcome"
    >
      <Icon name={outcome.kind === 'failed' ? 'alert' : outcome.item.status === 'success' ? 'check' : 'clock'} size={20} />
      <div>
        <p className={styles.activateOutcomeTitle}>{t(status.key)}</p>
        <p>{text}</p>
      </div>
    </section>
  );
}

function ActivationRow({ item }: { item: ActivationItem }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const status = activationStatusView(item.status);
  return (
    <article className={cx(styles.record, moneyStyles.record, 'card')} data-testid="activation-item">
      <div className={moneyStyles.recordMain}>
        <h3 className={cx(moneyStyles.recordType, 'mono')}>{item.serial}</h3>
        <p className={moneyStyles.recordMeta}>{item.model}</p>
        <time className={moneyStyles.recordDate} dateTime={item.created_at}>
          {formatDateTime(item.created_at, tag)}
        </time>
      </div>
      <div className={moneyStyles.recordSide}>
        <span className={cx(moneyStyles.statusChip, variant(moneyStyles, `status-chip--${status.tone}`))}>{t(status.key)}</span>
        {item.succeeded_at ? (
          <span className={moneyStyles.recordBalance}>{t('mining.activate.succeededAt', { time: formatDateTime(item.succeeded_at, tag) })}</span>
        ) : null}
      </div>
    </article>
  );
}
