import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import { formatAmount } from '@nadi/money/money';
import type { DestroyPayMethod, DestroyPreview, MinerItem, MiningOverview } from '@nadi/api/mining';
import type { PaymentOrder } from '@nadi/api/onchain';
import { AmountField } from '../../../components/amount-field.tsx';
import { Icon } from '../../../components/icon.tsx';
import { PaymentStepper } from '../../../components/payment/lazy-payment-stepper.tsx';
import { Segmented } from '../../../components/segmented.tsx';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { useAmountInput } from '../../../lib/amount/use-amount-input.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { invalidateMining } from '../../../lib/invalidate-mining.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';
import type { PaymentOutcome } from '../../../lib/payment/payment-flow.ts';
import { confirmDialog } from '../../../lib/confirm-dialog.ts';
import { useAssets } from '../../../lib/get-assets.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { notify } from '../../../lib/notify.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useDestroy } from '../api/destroy.ts';
import { useCreateDestroyOrder } from '../api/destroy-order.ts';
import { destroyPreviewQueryOptions, usePreviewDestroy } from '../api/preview-destroy.ts';
import { destroyCapUnits, destroyLimits, destroyPayOptions, destroyProblemMessage } from '../destroy-form.ts';
import { useDebounced } from '../hooks/use-debounced.ts';
import { refusalText } from '../mining-errors.ts';
import { formatPower } from '../mining-format.ts';
import { MinerCard } from './miner-card.tsx';
import { OverviewGate } from './overview-gate.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './mining.module.css';

/** Refusals about the amount itself, shown under the field rather than in a toast. */
const amountReasons = new Set(['DESTROY_BELOW_MIN', 'INSUFFICIENT_BALANCE', 'AMOUNT_TOO_SMALL']);

/**
 * /mining/destroy: destroy NADI for destroy power and an earnings budget, paid from the fund account
 * or from the wallet on chain (a payment order the payment stepper pays with payAndBurn).
 */
export default function DestroyPage() {
  const { t } = useTranslation();
  const assets = useAssets();
  return (
    <OverviewGate>
      {(overview) => {
        if (assets.isPending) return <LoadingView />;
        if (!assets.data) return <ErrorView title={t('walletPage.loadFailed')} error={assets.error} onRetry={() => void assets.refetch()} />;
        const fund = assets.data.accounts.find((account) => account.kind === 'fund' && account.asset === 'NADI');
        return <DestroyForm overview={overview} available={fund?.available ?? '0'} />;
      }}
    </OverviewGate>
  );
}

function DestroyForm({ overview, available }: { overview: MiningOverview; available: string }) {
  const { t } = useTranslation();
  const [method, setMethod] = useState<DestroyPayMethod>('balance');
  const [order, setOrder] = useState<{ order: PaymentOrder; quote: DestroyPreview } | null>(null);
  const limits = destroyLimits({ available, price: overview.reference_price, minUsdt: overview.params.destroy_min_usdt });
  const capUnits = destroyCapUnits(method, limits);
  const amount = useAmountInput(capUnits, limits.minUnits === null ? {} : { minUnits: limits.minUnits });
  const requested = useDebounced(amount.check.ok ? amount.check.text : null);
  const preview = usePreviewDestroy(amount.check.ok ? requested : null, method);
  const destroy = useDestroy();
  const createOrder = useCreateDestroyOrder();
  const [latest, setLatest] = useState<MinerItem | null>(null);
  const minText = formatMoney(overview.params.destroy_min_usdt, amountDigitsShown);
  const problem = amount.problem ? destroyProblemMessage(amount.problem, minText) : null;
  // The preview on screen belongs to the amount in the field only once the debounce caught up.
  const isPreviewCurrent = amount.check.ok && preview.data?.amount === amount.check.text && !preview.isPlaceholderData;
  const isBusy = destroy.isPending || createOrder.isPending;

  if (order) {
    return <WalletDestroy order={order.order} quote={order.quote} onDone={() => setOrder(null)} />;
  }

  function onRefused(error: unknown) {
    const reason = isApiError(error) ? error.failure.reason : null;
    if (reason === 'QUOTE_EXPIRED') {
      // The reference price moved since the preview: show the new figures before asking again.
      notify(t('mining.destroy.priceChanged'), 'fail');
      void preview.refetch();
      return;
    }
    const text = refusalText(error, t);
    if ((reason !== null && amountReasons.has(reason)) || (isApiError(error) && error.failure.fields.amount)) amount.setServerError(text);
    else notify(text, 'fail');
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const check = amount.trySubmit();
    if (!check.ok || isBusy) return;
    let quote: DestroyPreview;
    try {
      quote = await queryClient.fetchQuery(destroyPreviewQueryOptions(check.text, method));
    } catch (error) {
      onRefused(error);
      return;
    }
    const isConfirmed = await confirmDialog({
      title: t('mining.destroy.confirmTitle'),
      content: <PreviewFacts preview={quote} />,
      confirmText: t('mining.destroy.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!isConfirmed) return;
    if (method === 'chain') {
      // The wallet pays: a payment order first, then the payment stepper (approve, payAndBurn, confirmations).
      createOrder.mutate(
        { amount: quote.amount, price: quote.price },
        {
          onSuccess: (created) => {
            setOrder({ order: created, quote });
            amount.setText('');
          },
          onError: onRefused,
        },
      );
      return;
    }
    destroy.mutate(
      { amount: quote.amount, price: quote.price },
      {
        onSuccess: (result) => {
          notify(t('mining.destroy.success', { amount: formatMoney(quote.amount, amountDigitsShown), power: formatPower(result.miner.base_power) }), 'success');
          setLatest(result.miner);
          amount.setText('');
        },
        onError: onRefused,
      },
    );
  }

  return (
    <form className={moneyStyles.moneyScreen} onSubmit={(event) => void submit(event)} noValidate>
      {latest ? (
        <section className={moneyStyles.records} aria-label={t('mining.destroy.latest')}>
          <h2 className={styles.miningSectionTitle}>{t('mining.destroy.latest')}</h2>
          <MinerCard miner={latest} uptimeMinBps={null} />
        </section>
      ) : null}
      <Segmented
        label={t('mining.destroy.payWith')}
        value={method}
        options={destroyPayOptions.map((option) => ({ value: option.value, label: t(option.labelKey) }))}
        onChange={(next) => {
          setMethod(next);
          amount.setServerError(null);
        }}
      />
      {method === 'chain' ? (
        <p className={moneyStyles.formHint} data-testid="destroy-wallet-hint">
          {t('mining.destroy.walletHint')}
        </p>
      ) : null}
      <section className={cx(styles.destroyPrice, 'card')}>
        <div>
          <p className={styles.destroyPriceLabel}>{t('mining.destroy.price')}</p>
          <p className={cx(styles.destroyPriceValue, 'mono')}>{t('mining.destroy.priceValue', { price: formatMoney(overview.reference_price, 6) })}</p>
        </div>
        <span className={cx(moneyStyles.chip, overview.price_source === 'market' && moneyStyles.chipAccent)}>
          {t(`mining.priceSource.${overview.price_source}`)}
        </span>
      </section>
      <AmountField
        id="destroy-amount"
        testId="destroy-amount"
        value={amount.text}
        onChange={amount.setText}
        asset="NADI"
        availableUnits={capUnits}
        availableKey="mining.destroy.available"
        error={amount.serverError ?? (problem ? t(problem.key, problem.params) : null)}
        isDisabled={isBusy}
      />
      {/* The minimum, unless the field already says it. */}
      {amount.problem === 'BELOW_MIN' ? null : (
        <p className={moneyStyles.formHint} data-testid="destroy-minimum">
          {t('errors.DESTROY_BELOW_MIN', { amount: minText })}
          {limits.minUnits === null ? null : (
            <span className={styles.destroyMinimumNadi}>
              {t('mining.destroy.minimumNadi', { amount: formatAmount(limits.minUnits, { fractionDigitsMax: 4 }) })}
            </span>
          )}
        </p>
      )}
      <PreviewCard
        preview={amount.check.ok ? (preview.data ?? null) : null}
        isCurrent={isPreviewCurrent}
        isLoading={preview.isFetching}
        error={preview.error}
      />
      <button type="submit" className={cx('btn btn--block', styles.btnBurn)} data-testid="destroy-submit" disabled={isBusy}>
        <Icon name="flame" size={18} />
        {isBusy ? t('mining.destroy.submitting') : t(method === 'chain' ? 'mining.destroy.submitWallet' : 'mining.destroy.submit')}
      </button>
      <div className={moneyStyles.warningBox}>
        <Icon name="alert" size={18} />
        <div>
          <p className={moneyStyles.warningBoxTitle}>{t('mining.destroy.warningTitle')}</p>
          <p>
            {t('mining.destroy.warning', {
              power: formatPower(overview.params.destroy_power_per_usdt),
              multiplier: overview.params.destroy_budget_multiplier,
            })}
          </p>
        </div>
      </div>
      <Link to="/grow" className={moneyStyles.textLink}>
        {t('nav.grow')}
        <Icon name="chevron" size={16} />
      </Link>
    </form>
  );
}

/** A destroy paid from the wallet: the payment stepper for its order; once fulfilled the new miner shows in the mining screens. */
function WalletDestroy({ order, quote, onDone }: { order: PaymentOrder; quote: DestroyPreview; onDone: () => void }) {
  const { t } = useTranslation();
  function onOutcome(outcome: PaymentOutcome) {
    // Whatever happened, the miners, power and balances shown may be out of date now.
    void invalidateMining();
    void invalidateWallet();
    if (outcome.kind === 'success') {
      notify(t('mining.destroy.success', { amount: formatMoney(quote.amount, amountDigitsShown), power: formatPower(quote.power) }), 'success');
    }
  }
  return (
    <div className={moneyStyles.moneyScreen} data-testid="destroy-wallet">
      <PaymentStepper key={order.id} order={order} onOutcome={onOutcome} />
      <button type="button" className="btn btn--ghost btn--block" data-testid="destroy-wallet-done" onClick={onDone}>
        {t('mining.destroy.backToForm')}
      </button>
      <Link to="/mining" className={moneyStyles.textLink}>
        {t('mining.destroy.seeMiners')}
        <Icon name="chevron" size={16} />
      </Link>
    </div>
  );
}

/** The live preview: the value at the reference price, the power it gives and the earnings budget. */
function PreviewCard({ preview, isCurrent, isLoading, error }: { preview: DestroyPreview | null; isCurrent: boolean; isLoading: boolean; error: unknown }) {
  const { t } = useTranslation();
  if (!preview) {
    return (
      <section className={cx(styles.destroyPreview, 'card', styles.destroyPreviewEmpty)} aria-live="polite">
        <p className={moneyStyles.formHint}>{error && !isLoading ? refusalText(error, t) : t('mining.destroy.previewEmpty')}</p>
      </section>
    );
  }
  return (
    <section
      className={cx(styles.destroyPreview, 'card', !isCurrent && styles.destroyPreviewStale)}
      aria-live="polite"
      aria-busy={isLoading}
      data-testid="destroy-preview"
    >
      <h2 className={styles.destroyPreviewTitle}>{t('mining.destroy.previewTitle')}</h2>
      <PreviewFacts preview={preview} />
    </section>
  );
}

/** The facts of a destroy, in the preview and again in the confirm dialog. */
function PreviewFacts({ preview }: { preview: DestroyPreview }) {
  const { t } = useTranslation();
  const show = (text: string) => formatMoney(text, 4);
  return (
    <dl className={cx(styles.facts, moneyStyles.facts, styles.destroyFacts)}>
      <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
        <dt>{t('mining.destroy.amount')}</dt>
        <dd className="mono">{formatMoney(preview.amount, amountDigitsShown)} NADI</dd>
      </div>
      <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
        <dt>{t('mining.destroy.value')}</dt>
        <dd className="mono" data-testid="destroy-value">
          {show(preview.value_usdt)} USDT
        </dd>
      </div>
      <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
        <dt>{t('mining.destroy.priceUsed')}</dt>
        <dd className="mono">{formatMoney(preview.price, 6)} USDT</dd>
      </div>
      <div className={cx(styles.factsRow, moneyStyles.factsRow, styles.factsRowReceive)}>
        <dt>{t('mining.destroy.power')}</dt>
        <dd className="mono" data-testid="destroy-power">
          +{formatPower(preview.power)} P
        </dd>
      </div>
      <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
        <dt>{t('mining.destroy.budget')}</dt>
        <dd className="mono">{show(preview.budget_usdt)} USDT</dd>
      </div>
    </dl>
  );
}
