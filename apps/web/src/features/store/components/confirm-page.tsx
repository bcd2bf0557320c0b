import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Link, useNavigate } from 'react-router';
import type { RouteData } from '@nadi/api/route';
import type { AddressItem, addressRoutes } from '@nadi/api/store-address';
import type { ProductDetail, StoreOrderDetail, StorePayMethod, StoreQuote } from '@nadi/api/store';
import { Icon } from '../../../components/icon.tsx';
import { PaymentStepper } from '../../../components/payment/lazy-payment-stepper.tsx';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { confirmDialog } from '../../../lib/confirm-dialog.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';
import { langTags } from '../../../lib/langs.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { notify } from '../../../lib/notify.ts';
import type { PaymentOutcome } from '../../../lib/payment/payment-flow.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { submitErrorText } from '../../../lib/submit-error.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { addressesQueryKey, addressListQueryKey } from '../api/address-keys.ts';
import { useAddressList } from '../api/address-list.ts';
import { useDefaultAddress } from '../api/address-default.ts';
import { useOrderProducts } from '../api/get-product.ts';
import { storeQueryKey } from '../api/keys.ts';
import { quantityBounds } from '../product-view.ts';
import { useCreateOrder, type CreateOrderResult } from '../api/create-order.ts';
import { useQuote, type QuoteRequest } from '../api/quote.ts';
import { addressFailureKeys } from '../address-failure.ts';
import { classifyOrderRefusal, nextSubmission, orderBody, payAssetFor, pickAddress, settleSubmission, topUpPath, type Submission } from '../confirm-order.ts';
import { clearTempOrder, readTempOrder, updateTempOrder, type TempOrder } from '../temp-order.ts';
import { AddressPicker, type AddressSheet } from './address-picker.tsx';
import { AddressSummary } from './address-summary.tsx';
import { ItemRow, PaySection, QuoteFactsList, RemarkField } from './confirm-parts.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import confirmStyles from './confirm.module.css';
import storeStyles from './store.module.css';
import addressStyles from './address.module.css';

type TempChange = Partial<Omit<TempOrder, 'request_key'>>;
type AddressList = RouteData<typeof addressRoutes.list>;

/**
 * /store/confirm: the order confirmation (docs/product.md section 2). It reads the temporary order the product
 * screen wrote to session storage (so it survives a refresh) and keeps every change there; once the
 * order exists the temporary order is gone and the order detail takes over, or for a wallet
 * payment the payment stepper first.
 */
export default function ConfirmPage() {
  const [temp, setTemp] = useState(readTempOrder);
  const [walletOrder, setWalletOrder] = useState<StoreOrderDetail | null>(null);
  if (walletOrder?.payment) return <WalletPayment order={walletOrder} />;
  if (!temp) return <NoOrder />;
  return (
    <ConfirmForm
      temp={temp}
      onChange={(change) => setTemp((current) => updateTempOrder(change) ?? (current ? { ...current, ...change } : current))}
      onWalletOrder={setWalletOrder}
    />
  );
}

function NoOrder() {
  const { t } = useTranslation();
  return (
    <div className={moneyStyles.moneyScreen} data-testid="confirm-empty">
      <EmptyView title={t('orderConfirm.empty')} hint={t('orderConfirm.emptyHint')} icon="bag" />
      <Link to="/store" className="btn btn--block">
        <Icon name="bag" size={18} />
        {t('orderConfirm.toStore')}
      </Link>
      <Link to="/store/orders" className={moneyStyles.textLink}>
        {t('orderConfirm.toOrders')}
        <Icon name="chevron" size={16} />
      </Link>
    </div>
  );
}

interface FormProps {
  temp: TempOrder;
  onChange: (change: TempChange) => void;
  onWalletOrder: (order: StoreOrderDetail) => void;
}

function ConfirmForm({ temp, onChange, onWalletOrder }: FormProps) {
  const { t } = useTranslation();
  const products = useOrderProducts(temp.items.map((item) => item.product_id));
  if (products.isPending) return <LoadingView />;
  if (!products.data) return <ErrorView title={t('orderConfirm.itemsFailed')} error={products.error} onRetry={() => void products.refetch()} />;
  return <ConfirmContent temp={temp} products={products.data} onChange={onChange} onWalletOrder={onWalletOrder} />;
}

function ConfirmContent({ temp, products, onChange, onWalletOrder }: FormProps & { products: ProductDetail[] }) {
  const { t } = useTranslation();
  const [sheet, setSheet] = useState<AddressSheet>(null);
  const address = useChosenAddress(temp.address_id, sheet !== null);
  const isOrderable = products.every((product) => quantityBounds(product).max >= 1);
  const request: QuoteRequest | null = isOrderable ? { items: temp.items, pay_method: temp.pay_method, pay_asset: temp.pay_asset } : null;
  const quote = useQuote(request);
  const order = useOrderSubmit(temp, onChange, onWalletOrder);
  const current = quote.data && !quote.isPlaceholderData ? quote.data : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (order.isBusy || !current) return;
    if (!address.item) {
      notify(t('errors.ADDRESS_REQUIRED'), 'fail');
      setSheet(address.hasAny ? 'choose' : 'add');
      return;
    }
    order.submit(current, address.item.id);
  }

  return (
    <>
      <form className={cx(moneyStyles.moneyScreen, 'confirm-page')} onSubmit={submit} noValidate>
        <AddressSection address={address} onOpen={() => setSheet(address.hasAny || address.item ? 'choose' : 'add')} />
        <section className={cx(confirmStyles.confirmSection, 'card', confirmStyles.confirmItems)} aria-label={t('orderConfirm.items')}>
          {temp.items.map((item, index) => {
            const product = products[index];
            if (!product) return null;
            const setQuantity = (quantity: number) => onChange({ items: temp.items.map((line, at) => (at === index ? { ...line, quantity } : line)) });
            return <ItemRow key={item.product_id} product={product} quantity={item.quantity} isDisabled={order.isBusy} onQuantity={setQuantity} />;
          })}
        </section>
        <PaySection
          method={temp.pay_method}
          asset={temp.pay_asset}
          isDisabled={order.isBusy}
          onChange={(method, asset) => onChange({ pay_method: method, pay_asset: payAssetFor(method, asset) })}
        />
        <QuoteCard quote={quote} method={temp.pay_method} isOrderable={isOrderable} />
        <RemarkField value={temp.remark} isDisabled={order.isBusy} onChange={(remark) => onChange({ remark })} />
        <SubmitButton quote={current} method={temp.pay_method} isBusy={order.isBusy} />
      </form>
      {/* Outside the form: the sheet's own form must never submit the order. */}
      <AddressPicker
        sheet={sheet}
        selectedId={address.item?.id ?? null}
        onSheet={setSheet}
        onSelect={(item) => {
          rememberAdded(item);
          onChange({ address_id: item.id });
          setSheet(null);
        }}
      />
    </>
  );
}

/**
 * Sends the order and answers what comes back: paid at once → the order detail; a wallet order →
 * the payment stepper; a short balance → the dialog of docs/product.md section 8 with both amounts; a moved price → the
 * quote again. The Idempotency-Key is the temporary order's.
 */
function useOrderSubmit(temp: TempOrder, onChange: (change: TempChange) => void, onWalletOrder: (order: StoreOrderDetail) => void) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const createOrder = useCreateOrder();
  const pending = useRef<Submission | null>(null);

  function onOrdered({ order }: CreateOrderResult) {
    clearTempOrder();
    if (order.status === 'unpaid' && order.payment) {
      onWalletOrder(order);
      return;
    }
    notify(t('orderConfirm.paid'), 'success');
    void navigate(`/store/orders/${order.id}`, { replace: true });
  }

  async function showBalanceShort(short: { current: string; required: string; asset: string }) {
    const show = (text: string) => `${formatMoney(text, amountDigitsShown)} ${short.asset}`;
    const isConfirmed = await confirmDialog({
      title: t('orderConfirm.shortTitle'),
      content: (
        <dl className={cx(moneyStyles.facts, confirmStyles.confirmFacts)} data-testid="balance-short">
          <div className={cx(confirmStyles.factsRow, storeStyles.factsRow, moneyStyles.factsRow)}>
            <dt>{t('orderConfirm.shortCurrent')}</dt>
            <dd className="mono">{show(short.current)}</dd>
          </div>
          <div className={cx(confirmStyles.factsRow, storeStyles.factsRow, moneyStyles.factsRow)}>
            <dt>{t('orderConfirm.shortRequired')}</dt>
            <dd className="mono">{show(short.required)}</dd>
          </div>
        </dl>
      ),
      confirmText: t(temp.pay_method === 'credit' ? 'orderConfirm.topUpCredit' : 'orderConfirm.topUp'),
      cancelText: t('common.close'),
    });
    if (isConfirmed) void navigate(topUpPath(temp.pay_method));
  }

  function onRefused(error: unknown) {
    const refusal = classifyOrderRefusal(error);
    if (refusal.kind === 'balance-short') {
      void showBalanceShort(refusal);
      return;
    }
    if (refusal.kind === 'already-placed') {
      clearTempOrder();
      notify(t('orderConfirm.alreadyPlaced'), 'fail');
      void navigate('/store/orders', { replace: true });
      return;
    }
    // The order's invalidation reads the items, quote and addresses again; the toast says why.
    notify(refusal.kind === 'quote-expired' ? t('orderConfirm.priceChanged') : submitErrorText(error, t), 'fail');
    if (refusal.kind === 'address') onChange({ address_id: null });
  }

  function submit(quote: StoreQuote, addressId: number) {
    const submission = nextSubmission(pending.current, temp.request_key, orderBody(temp, quote, addressId));
    pending.current = submission;
    createOrder.mutate(
      { body: submission.body, idempotencyKey: submission.key },
      {
        onSuccess: onOrdered,
        onError: onRefused,
        onSettled: (_data, error) => {
          pending.current = settleSubmission(submission, error);
        },
      },
    );
  }

  return { submit, isBusy: createOrder.isPending };
}

interface ChosenAddress {
  item: AddressItem | null;
  /** Whether the user has any address (the default exists exactly when one does). */
  hasAny: boolean;
  isPending: boolean;
  error: unknown;
  retry: () => void;
}

/** The default address (docs/store.md "Addresses": preselected), or the one chosen on this screen while it still exists. */
function useChosenAddress(chosenId: number | null, isPickerOpen: boolean): ChosenAddress {
  const fallback = useDefaultAddress();
  const list = useAddressList(chosenId !== null || isPickerOpen);
  const isListNeeded = chosenId !== null && fallback.data?.id !== chosenId;
  return {
    item: fallback.data === undefined ? null : pickAddress(chosenId, fallback.data, list.data?.list),
    hasAny: Boolean(fallback.data) || (list.data?.total ?? 0) > 0,
    isPending: fallback.isPending || (isListNeeded && list.isPending),
    error: fallback.data === undefined ? fallback.error : isListNeeded && !list.data ? list.error : null,
    retry: () => void queryClient.invalidateQueries({ queryKey: addressesQueryKey }),
  };
}

/** An address added in the sheet is in the list at once, before the list is read again, so it shows as chosen without a flash of the default. */
function rememberAdded(item: AddressItem) {
  queryClient.setQueryData(addressListQueryKey, (old: AddressList | undefined) =>
    old && !old.list.some((entry) => entry.id === item.id) ? { ...old, list: [...old.list, item], total: old.total + 1 } : old,
  );
}

function AddressSection({ address, onOpen }: { address: ChosenAddress; onOpen: () => void }) {
  const { t } = useTranslation();
  if (address.isPending) {
    return (
      <section className={cx(confirmStyles.confirmAddress, 'card')} aria-busy="true">
        <span className={cx('skeleton', confirmStyles.confirmAddressSkeleton)} />
      </section>
    );
  }
  if (address.error) {
    return (
      <section className={cx(confirmStyles.confirmAddress, 'card', confirmStyles.confirmAddressError)} role="alert">
        <p>{t(addressFailureKeys.default)}</p>
        <button type="button" className="btn btn--ghost btn--small" onClick={address.retry}>
          <Icon name="refresh" size={16} />
          {t('common.retry')}
        </button>
      </section>
    );
  }
  return (
    <button type="button" className={cx(confirmStyles.confirmAddress, 'card')} onClick={onOpen} data-testid="confirm-address">
      <span className={confirmStyles.confirmAddressIcon} aria-hidden="true">
        <Icon name="pin" size={20} />
      </span>
      <span className={confirmStyles.confirmAddressBody}>
        {address.item ? (
          <AddressSummary address={address.item} />
        ) : (
          <span className={confirmStyles.confirmAddressNone}>
            <span className={confirmStyles.confirmAddressTitle}>{t('orderConfirm.noAddress')}</span>
            <span className={addressStyles.addressCardText}>{t('orderConfirm.noAddressHint')}</span>
          </span>
        )}
      </span>
      <Icon name="chevron" size={18} className={confirmStyles.confirmAddressChevron} />
    </button>
  );
}

interface QuoteState {
  data: StoreQuote | undefined;
  error: unknown;
  isFetching: boolean;
  isPlaceholderData: boolean;
  refetch: () => unknown;
}

function QuoteCard({ quote, method, isOrderable }: { quote: QuoteState; method: StorePayMethod; isOrderable: boolean }) {
  const { t } = useTranslation();
  if (!isOrderable) {
    return (
      <section className={cx('confirm-quote card', confirmStyles.confirmQuoteEmpty)}>
        <p className={moneyStyles.formHint}>{t('orderConfirm.notOrderable')}</p>
      </section>
    );
  }
  if (!quote.data) {
    return (
      <section className={cx('confirm-quote card', confirmStyles.confirmQuoteEmpty)} aria-live="polite">
        {quote.error && !quote.isFetching ? (
          <>
            <p className={cx(addressStyles.fieldError, moneyStyles.fieldError)} role="alert" data-testid="confirm-quote-error">
              {submitErrorText(quote.error, t)}
            </p>
            <button type="button" className="btn btn--ghost btn--small" onClick={() => void quote.refetch()}>
              <Icon name="refresh" size={16} />
              {t('common.retry')}
            </button>
          </>
        ) : (
          <LoadingView label={t('orderConfirm.quoting')} />
        )}
      </section>
    );
  }
  return (
    <section
      className={cx('confirm-quote card', quote.isPlaceholderData && confirmStyles.confirmQuoteStale)}
      aria-live="polite"
      aria-busy={quote.isFetching}
      data-testid="confirm-quote"
    >
      <QuoteFactsList quote={quote.data} method={method} />
    </section>
  );
}

function SubmitButton({ quote, method, isBusy }: { quote: StoreQuote | null; method: StorePayMethod; isBusy: boolean }) {
  const { t } = useTranslation();
  const label = isBusy
    ? t('orderConfirm.submitting')
    : method === 'chain'
      ? t('orderConfirm.submitWallet')
      : quote
        ? t('orderConfirm.submit', { amount: formatMoney(quote.pay_amount, amountDigitsShown), asset: quote.pay_asset })
        : t('orderConfirm.submitPlain');
  return (
    <button type="submit" className="btn btn--block" disabled={isBusy || !quote} data-testid="confirm-submit">
      <Icon name={method === 'chain' ? 'wallet' : 'bag'} size={18} />
      {label}
    </button>
  );
}

/** A wallet payment: the order exists (unpaid, its stock held); the stepper pays it, then the order detail shows it. */
function WalletPayment({ order }: { order: StoreOrderDetail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tag = langTags[useLang()];
  const toDetail = () => void navigate(`/store/orders/${order.id}`, { replace: true });
  function onOutcome(outcome: PaymentOutcome) {
    // Whatever happened, the order's status and the balances shown may be out of date now.
    void queryClient.invalidateQueries({ queryKey: [storeQueryKey] });
    void invalidateWallet();
    if (outcome.kind === 'success') {
      notify(t('orderConfirm.paidChain'), 'success');
      toDetail();
    }
  }
  if (!order.payment) return null;
  return (
    <div className={moneyStyles.moneyScreen} data-testid="confirm-wallet">
      <section className={cx('card', confirmStyles.confirmWalletHead)}>
        <p className={moneyStyles.formHint}>{t('orderConfirm.orderNo', { number: order.order_no })}</p>
        {order.expires_at ? <p className={moneyStyles.formHint}>{t('orderConfirm.heldUntil', { time: formatDateTime(order.expires_at, tag) })}</p> : null}
      </section>
      <PaymentStepper key={order.payment.id} order={order.payment} onOutcome={onOutcome} />
      <button type="button" className="btn btn--ghost btn--block" onClick={toDetail} data-testid="confirm-wallet-order">
        {t('orderConfirm.viewOrder')}
      </button>
    </div>
  );
}
