import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import type { TFunction } from '../../../lib/translator.ts';
import { Link, useNavigate } from 'react-router';
import type { NodePayMethod, NodeQuote, NodeTier } from '@nadi/api/node';
import type { PaymentOrder } from '@nadi/api/onchain';
import { Icon } from '../../../components/icon.tsx';
import { Segmented } from '../../../components/segmented.tsx';
import { LoadingView } from '../../../components/state-view.tsx';
import { confirmDialog } from '../../../lib/confirm-dialog.ts';
import { notify } from '../../../lib/notify.ts';
import { requestSignIn } from '../../../lib/sign-in-request.ts';
import { submitErrorText } from '../../../lib/submit-error.ts';
import { useSession } from '../../../lib/use-session.ts';
import { useBuyNode, type NodeBuyResult } from '../api/buy-node.ts';
import { useNodeQuote } from '../api/quote-node.ts';
import { buyBlockKeys, levelLabel, type BuyBlock } from '../node-view.ts';
import { attemptFor, isResumable, readAttempt, saveAttempt, settleAttempt, submissionOf } from '../purchase-attempt.ts';
import {
  buyRequest,
  classifyBuyRefusal,
  isQuoteFor,
  nextPayChoice,
  payAssetOptions,
  payMethodOptions,
  quoteFacts,
  topUpPath,
  type NodePayAsset,
  type PayChoice,
  type PurchaseChoice,
} from '../purchase.ts';
import { showAmount } from './node-parts.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './node.module.css';

interface SectionProps {
  tier: NodeTier;
  block: BuyBlock;
  onWalletOrder: (order: PaymentOrder) => void;
}

/** Buying one node: signed out → sign in; a tier that cannot be bought says why; else the form. */
export function PurchaseSection({ tier, block, onWalletOrder }: SectionProps) {
  const { isSignedIn } = useSession();
  if (!isSignedIn) return <SignInToBuy tier={tier} />;
  if (block !== null) return <Blocked tier={tier} block={block} />;
  return <PurchaseForm tier={tier} onWalletOrder={onWalletOrder} />;
}

function SignInToBuy({ tier }: { tier: NodeTier }) {
  const { t } = useTranslation();
  return (
    <section className={cx('card', styles.nodeBuy, 'node-buy--signed-out')} data-testid="node-sign-in">
      <p className={cx(styles.formHint, moneyStyles.formHint)}>{t('node.buy.signInHint')}</p>
      <button type="button" className="btn btn--block" onClick={() => requestSignIn({ redirectTo: `/node/${tier.id}` })}>
        <Icon name="wallet" size={18} />
        {t('node.buy.signIn')}
      </button>
    </section>
  );
}

function Blocked({ tier, block }: { tier: NodeTier; block: Exclude<BuyBlock, null> }) {
  const { t } = useTranslation();
  return (
    <section className={cx('card', styles.nodeBuy, styles.nodeBuyBlocked)} role="status" data-testid="node-blocked" data-block={block}>
      <Icon name={block === 'limit' ? 'check' : 'lock'} size={20} />
      <p>{t(buyBlockKeys[block], { max: tier.per_user_limit })}</p>
      {block === 'limit' ? (
        <Link to="/node/mine" className={moneyStyles.textLink}>
          {t('node.list.myNodes')}
          <Icon name="chevron" size={16} />
        </Link>
      ) : null}
    </section>
  );
}

/** The method stored with an unfinished attempt for this tier (a wallet order not yet paid), so it is offered again. */
function initialChoice(tier: NodeTier): PayChoice {
  const stored = readAttempt();
  if (stored?.tier_id === tier.id && stored.sent !== null) return { method: stored.pay_method, asset: stored.pay_asset };
  return { method: 'balance', asset: 'NADI' };
}

function PurchaseForm({ tier, onWalletOrder }: { tier: NodeTier; onWalletOrder: (order: PaymentOrder) => void }) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState(() => initialChoice(tier));
  const choice: PurchaseChoice = { tier_id: tier.id, pay_method: picked.method, pay_asset: picked.asset };
  const quote = useNodeQuote(choice);
  const purchase = usePurchase(tier, onWalletOrder);
  const current = quote.data && !quote.isPlaceholderData && isQuoteFor(quote.data, choice) ? quote.data : null;
  const isResuming = isResumable(readAttempt(), choice);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (purchase.isBusy || !current) return;
    purchase.submit(choice, current);
  }

  return (
    <form className={styles.nodeBuy} onSubmit={submit} noValidate data-testid="node-buy">
      <h2 className={styles.nodeSectionTitle}>{t('node.buy.title', { level: levelLabel(tier.level_id) })}</h2>
      <PayChoice
        method={picked.method}
        asset={picked.asset}
        isDisabled={purchase.isBusy}
        onChange={(method, asset) => setPicked((current) => nextPayChoice(current, method, asset))}
      />
      {picked.method === 'chain' ? (
        <p className={styles.networkNote} data-testid="node-network-note">
          <Icon name="network" size={16} />
          {t('node.pay.networkNote', { network: tier.network.name })}
        </p>
      ) : null}
      <QuoteCard quote={quote} current={current} method={picked.method} />
      <button type="submit" className="btn btn--block" disabled={purchase.isBusy || !current} data-testid="node-buy-submit">
        <Icon name={picked.method === 'chain' ? 'wallet' : 'network'} size={18} />
        {submitLabel(t, { isBusy: purchase.isBusy, isResuming, method: picked.method, quote: current })}
      </button>
    </form>
  );
}

function submitLabel(
  t: TFunction,
  { isBusy, isResuming, method, quote }: { isBusy: boolean; isResuming: boolean; method: NodePayMethod; quote: NodeQuote | null },
): string {
  if (isBusy) return t('node.buy.submitting');
  if (method === 'chain') return t(isResuming ? 'node.buy.resumeWallet' : 'node.buy.submitWallet');
  if (!quote) return t('node.buy.quoting');
  return t('node.buy.submit', { amount: showAmount(quote.pay_amount), asset: quote.pay_asset });
}

interface PayChoiceProps {
  method: NodePayMethod;
  asset: NodePayAsset;
  isDisabled: boolean;
  onChange: (method: NodePayMethod, asset: NodePayAsset) => void;
}

/** The pay method (fund account, destroy quota, wallet) and, for the wallet, the asset. */
function PayChoice({ method, asset, isDisabled, onChange }: PayChoiceProps) {
  const { t } = useTranslation();
  const assets = payAssetOptions(method);
  const hintKey = payMethodOptions.find((option) => option.value === method)?.hintKey;
  return (
    <fieldset className={styles.nodePay} disabled={isDisabled}>
      <legend className={moneyStyles.fieldLabel}>{t('node.pay.title')}</legend>
      <Segmented
        label={t('node.pay.title')}
        value={method}
        options={payMethodOptions.map((option) => ({ value: option.value, label: t(option.labelKey) }))}
        onChange={(next) => onChange(next, asset)}
      />
      {assets.length > 1 ? (
        <Segmented
          label={t('node.pay.asset')}
          value={asset}
          options={assets.map((value) => ({ value, label: value }))}
          onChange={(next) => onChange(method, next)}
        />
      ) : null}
      {hintKey ? (
        <p className={cx(styles.formHint, moneyStyles.formHint)} data-testid="node-pay-hint">
          {t(hintKey)}
        </p>
      ) : null}
    </fieldset>
  );
}

interface QuoteState {
  data: NodeQuote | undefined;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

/** What buying would charge: the NADI price and its source, the amount, what the paying account holds. */
function QuoteCard({ quote, current, method }: { quote: QuoteState; current: NodeQuote | null; method: NodePayMethod }) {
  const { t } = useTranslation();
  const shown = current ?? quote.data ?? null;
  if (!shown || (quote.error && !quote.isFetching)) {
    return (
      <section className={cx('node-quote card', styles.nodeQuoteEmpty)} aria-live="polite">
        {quote.error && !quote.isFetching ? (
          <>
            <p className={moneyStyles.fieldError} role="alert" data-testid="node-quote-error">
              {submitErrorText(quote.error, t)}
            </p>
            <button type="button" className="btn btn--ghost btn--small" onClick={() => void quote.refetch()}>
              <Icon name="refresh" size={16} />
              {t('common.retry')}
            </button>
          </>
        ) : (
          <LoadingView label={t('node.buy.quoting')} />
        )}
      </section>
    );
  }
  const facts = quoteFacts(shown);
  return (
    <section className={cx('node-quote card', !current && styles.nodeQuoteStale)} aria-live="polite" aria-busy={quote.isFetching} data-testid="node-quote">
      <dl className={cx(styles.facts, moneyStyles.facts)}>
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('node.quote.price')}</dt>
          <dd className="mono">{showAmount(shown.price_usdt)} USDT</dd>
        </div>
        {facts.isPriced && shown.price !== null ? (
          <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
            <dt>{t('node.quote.rate')}</dt>
            <dd className={styles.nodeQuoteRate}>
              <span className="mono">{t('node.quote.rateValue', { price: showAmount(shown.price) })}</span>
              {shown.price_source ? (
                <span className={cx(moneyStyles.chip, shown.price_source === 'market' && moneyStyles.chipAccent)}>
                  {t(`node.quote.source.${shown.price_source}`)}
                </span>
              ) : null}
            </dd>
          </div>
        ) : null}
        <div className={cx(styles.factsRow, moneyStyles.factsRow, 'facts__row--pay')}>
          <dt>{t('node.quote.toPay')}</dt>
          <dd className={cx('mono', styles.nodeQuotePay)} data-testid="node-pay-amount">
            {showAmount(shown.pay_amount)} {shown.pay_asset}
          </dd>
        </div>
        {shown.available !== null ? (
          <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
            <dt>{t(method === 'credit' ? 'node.quote.availableCredit' : 'node.quote.availableBalance')}</dt>
            <dd className={cx('mono', facts.isShort && styles.nodeQuoteShort)} data-testid="node-available">
              {showAmount(shown.available)} {shown.pay_asset}
            </dd>
          </div>
        ) : null}
      </dl>
      {facts.isShort ? <p className={styles.nodeQuoteWarning}>{t('node.quote.short')}</p> : null}
    </section>
  );
}

/**
 * Sends the purchase and answers what comes back: bought → my nodes; a wallet order → the payment
 * stepper; a short balance → the dialog of docs/product.md section 8 with both amounts; a moved price → the quote again.
 * The Idempotency-Key and the body sent are the attempt's (purchase-attempt.ts), saved before sending.
 */
function usePurchase(tier: NodeTier, onWalletOrder: (order: PaymentOrder) => void) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const buy = useBuyNode();

  function onBought(result: NodeBuyResult) {
    notify(t('node.buy.bought', { level: levelLabel(result.holding?.level_id ?? tier.level_id) }), 'success');
    void navigate('/node/mine');
  }

  function onRefused(error: unknown, method: NodePayMethod) {
    const refusal = classifyBuyRefusal(error);
    if (refusal.kind === 'balance-short') {
      void showBalanceShort(refusal, method);
      return;
    }
    if (refusal.kind === 'already-bought') {
      saveAttempt(null);
      notify(t('node.buy.alreadyBought'), 'fail');
      void navigate('/node/mine');
      return;
    }
    // The purchase's invalidation reads the tier and the quote again; the toast says why.
    notify(refusal.kind === 'quote-expired' ? t('node.buy.priceChanged') : submitErrorText(error, t), 'fail');
  }

  async function showBalanceShort(short: { current: string; required: string; asset: string }, method: NodePayMethod) {
    const isConfirmed = await confirmDialog({
      title: t('node.short.title'),
      content: (
        <ShortFacts
          rows={[
            { label: t('node.short.current'), value: `${showAmount(short.current)} ${short.asset}` },
            { label: t('node.short.required'), value: `${showAmount(short.required)} ${short.asset}` },
          ]}
        />
      ),
      confirmText: t(method === 'credit' ? 'node.short.topUpCredit' : 'node.short.topUp'),
      cancelText: t('common.close'),
    });
    if (isConfirmed) void navigate(topUpPath(method));
  }

  function submit(choice: PurchaseChoice, quote: NodeQuote) {
    const attempt = attemptFor(choice, readAttempt());
    const { key, body } = submissionOf(attempt, buyRequest(choice, quote));
    // Saved before sending: a refresh while the answer is on its way sends this body again, not a second purchase.
    saveAttempt({ ...attempt, sent: body });
    buy.mutate(
      { body, idempotencyKey: key },
      {
        onSuccess: (result) => {
          if (result.holding === null && result.payment) {
            saveAttempt(settleAttempt(attempt, body, { kind: 'awaiting-payment' }));
            onWalletOrder(result.payment);
            return;
          }
          saveAttempt(settleAttempt(attempt, body, { kind: 'bought' }));
          onBought(result);
        },
        onError: (error) => {
          saveAttempt(settleAttempt(attempt, body, { kind: 'failed', error }));
          onRefused(error, choice.pay_method);
        },
      },
    );
  }

  return { submit, isBusy: buy.isPending };
}

/**
 * docs/product.md section 8: "insufficient balance (dialog shows current and required NADI)". The dialog renders
 * outside the app's providers, so it gets its text already translated.
 */
function ShortFacts({ rows }: { rows: { label: string; value: string }[] }) {
  return (
    <dl className={cx(styles.facts, moneyStyles.facts, styles.nodeShort)} data-testid="node-balance-short">
      {rows.map((row) => (
        <div key={row.label} className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{row.label}</dt>
          <dd className="mono">{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
