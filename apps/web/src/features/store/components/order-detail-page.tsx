import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Link, useParams } from 'react-router';
import { receiptAutoConfirmDays, type StoreOrderDetail } from '@nadi/api/store';
import { formatPhone } from '../address-form-state.ts';
import { CopyButton } from '../../../components/copy-button.tsx';
import { Icon } from '../../../components/icon.tsx';
import { PaymentStepper } from '../../../components/payment/lazy-payment-stepper.tsx';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { invalidateMining } from '../../../lib/invalidate-mining.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';
import { langTags } from '../../../lib/langs.ts';
import { formatMoney } from '../../../lib/money-format.ts';
import { notify } from '../../../lib/notify.ts';
import type { PaymentOutcome } from '../../../lib/payment/payment-flow.ts';
import { formatPower } from '../../../lib/power-format.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useOrder } from '../api/get-order.ts';
import { storeKeys } from '../api/keys.ts';
import { useCancelAction, useReceiptAction } from '../hooks/use-order-actions.ts';
import { assetAmountText, autoConfirmAt, orderActions, orderStatusView, priceBasis } from '../order-view.ts';
import { orderIdMax, parseRouteId } from '../../../lib/route-id.ts';
import { ProductImage } from './product-image.tsx';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import storeStyles from './store.module.css';
import confirmStyles from './confirm.module.css';

/** The payment window is checked against this clock; a minute is fine enough for it. */
const clockTickMs = 30_000;

/** /store/orders/:id: everything about one order, and what can be done with it now. */
export default function OrderDetailPage() {
  const { t } = useTranslation();
  const id = parseRouteId(useParams().id, orderIdMax);
  const order = useOrder(id);
  if (id === null) {
    return (
      <div className={storeStyles.storeMissing}>
        <EmptyView title={t('store.order.badId')} icon="alert" />
        <BackToOrders />
      </div>
    );
  }
  if (order.isPending) return <LoadingView />;
  if (!order.data) return <ErrorView title={t('store.order.loadFailed')} error={order.error} onRetry={() => void order.refetch()} action={<BackToOrders />} />;
  return <OrderView order={order.data} />;
}

function BackToOrders() {
  const { t } = useTranslation();
  return (
    <Link to="/store/orders" className={moneyStyles.textLink}>
      {t('store.order.backToList')}
    </Link>
  );
}

function OrderView({ order }: { order: StoreOrderDetail }) {
  const { t } = useTranslation();
  const now = useNow(clockTickMs);
  const [isPaying, setIsPaying] = useState(false);
  const actions = orderActions(order, now);
  const receipt = useReceiptAction();
  const cancel = useCancelAction();

  // Once started, the stepper stays until the user leaves it, even when the order turns paid under it.
  if (isPaying && order.payment) {
    return <WalletPay order={order} onDone={() => setIsPaying(false)} />;
  }
  const hasActions = actions.canConfirmReceipt || actions.canCancel || actions.canPay;
  return (
    <div className={cx(moneyStyles.moneyScreen, storeStyles.orderDetail, hasActions && storeStyles.orderDetailWithBar)} data-testid="order-detail">
      <StatusCard order={order} />
      <AddressCard order={order} />
      <ItemsCard order={order} />
      <OrderFacts order={order} />
      <ShippingCard order={order} />
      <DevicesCard order={order} />
      {hasActions ? (
        <div className={storeStyles.actionBar}>
          {actions.canCancel ? (
            <button type="button" className="btn btn--ghost" onClick={() => void cancel.run(order.id)} disabled={cancel.isPending} data-testid="order-cancel">
              {cancel.isPending ? t('store.order.cancelling') : t('store.order.cancel')}
            </button>
          ) : null}
          {actions.canPay ? (
            <button type="button" className="btn" onClick={() => setIsPaying(true)} data-testid="order-pay">
              <Icon name="wallet" size={18} />
              {t('store.order.pay')}
            </button>
          ) : null}
          {actions.canConfirmReceipt ? (
            <button type="button" className="btn" onClick={() => void receipt.run(order.id)} disabled={receipt.isPending} data-testid="order-confirm-receipt">
              <Icon name="check" size={18} />
              {receipt.isPending ? t('store.order.confirming') : t('store.order.confirmReceipt')}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/**
 * An unpaid chain order: the wallet payment stepper resumes with the order's payment (as the destroy
 * screen does); once the watcher credits it, the order reads "to ship".
 */
function WalletPay({ order, onDone }: { order: StoreOrderDetail; onDone: () => void }) {
  const { t } = useTranslation();
  const payment = order.payment;
  if (!payment) return null;
  function onOutcome(outcome: PaymentOutcome) {
    // Whatever happened, the order, the lists and the balances shown may be out of date now.
    void queryClient.invalidateQueries({ queryKey: storeKeys.order(order.id) });
    void queryClient.invalidateQueries({ queryKey: storeKeys.orders() });
    void invalidateWallet();
    void invalidateMining();
    if (outcome.kind === 'success') notify(t('store.order.payDone'), 'success');
  }
  return (
    <div className={moneyStyles.moneyScreen} data-testid="order-wallet-pay">
      <p className={moneyStyles.formHint}>{t('store.order.payHint', { number: order.order_no })}</p>
      <PaymentStepper key={payment.id} order={payment} onOutcome={onOutcome} />
      <button type="button" className="btn btn--ghost btn--block" onClick={onDone} data-testid="order-pay-back">
        {t('store.order.backToOrder')}
      </button>
    </div>
  );
}

function StatusCard({ order }: { order: StoreOrderDetail }) {
  const { t } = useTranslation();
  const status = orderStatusView(order.status);
  return (
    <section className={cx(storeStyles.orderStatusCard, 'card', variant(storeStyles, `order-status-card--${status.tone}`))} aria-live="polite">
      <p className={storeStyles.orderStatusCardTitle} data-testid="order-status">
        {t(status.key)}
      </p>
      <p className={storeStyles.orderStatusCardText}>{t(statusHintKey(order), { days: receiptAutoConfirmDays })}</p>
    </section>
  );
}

function statusHintKey(order: StoreOrderDetail): string {
  if (order.status === 'cancelled') return order.cancel_reason === 'expired' ? 'store.order.hint.cancelledExpired' : 'store.order.hint.cancelledUser';
  if (order.status === 'completed' && order.is_auto_confirmed) return 'store.order.hint.completedAuto';
  return `store.order.hint.${order.status}`;
}

function AddressCard({ order }: { order: StoreOrderDetail }) {
  const { t } = useTranslation();
  const { address } = order;
  return (
    <section className={cx(storeStyles.orderAddress, 'card')} aria-label={t('store.order.address')}>
      <span className={storeStyles.orderAddressIcon} aria-hidden="true">
        <Icon name="pin" size={20} />
      </span>
      <div className={storeStyles.orderAddressText}>
        <p className={storeStyles.orderAddressWho}>
          <span>{address.receiver_name}</span>
          <span className="mono">{formatPhone(address.phone)}</span>
        </p>
        <p className={storeStyles.orderAddressWhere}>
          {address.area} {address.detail}
        </p>
      </div>
    </section>
  );
}

function ItemsCard({ order }: { order: StoreOrderDetail }) {
  const { t } = useTranslation();
  return (
    <section className="order-items card" aria-labelledby="order-items-title">
      <h2 id="order-items-title" className={storeStyles.orderCardTitle}>
        {t('store.order.items')}
      </h2>
      <ul className={storeStyles.orderItemsList}>
        {order.items.map((item) => (
          <li key={item.product_id} className={storeStyles.orderLine}>
            <ProductImage imageKey={item.image} alt={item.name} className={storeStyles.orderLineThumb} />
            <div className={storeStyles.orderLineText}>
              <p className={storeStyles.orderLineName}>{item.name}</p>
              <p className={storeStyles.orderLineMeta}>{t('store.order.unitPower', { power: formatPower(item.unit_power) })}</p>
            </div>
            <p className={cx(storeStyles.orderLinePrice, 'mono')}>
              {assetAmountText(item.price_usdt, 'USDT')} USDT
              <span className={storeStyles.orderLineQty}>× {item.quantity}</span>
            </p>
          </li>
        ))}
      </ul>
      <dl className={cx(moneyStyles.facts, storeStyles.orderItemsSum)}>
        <Fact label={t('store.order.itemCount')} value={String(order.item_count)} isNumber />
        <Fact label={t('store.order.totalUsdt')} value={`${assetAmountText(order.total_usdt, 'USDT')} USDT`} isNumber />
      </dl>
    </section>
  );
}

/** Order number, times, how it was paid and the actual total with its price basis, the remark. */
function OrderFacts({ order }: { order: StoreOrderDetail }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const basis = priceBasis(order);
  return (
    <dl className={cx(moneyStyles.facts, 'card')} data-testid="order-facts">
      <Fact
        label={t('store.order.number')}
        value={
          <span className={storeStyles.orderCopy}>
            <span className="mono">{order.order_no}</span>
            <CopyButton text={order.order_no} label={t('store.order.copyNumber')} testId="order-copy-number" />
          </span>
        }
      />
      <Fact label={t('store.order.createdAt')} value={formatDateTime(order.created_at, tag)} />
      <Fact label={t('store.order.payMethod')} value={t(`store.order.payMethods.${order.pay_method}`)} />
      <div className={cx(confirmStyles.factsRow, storeStyles.factsRow, moneyStyles.factsRow)}>
        <dt>{t('store.order.actualTotal')}</dt>
        <dd className={cx('mono', storeStyles.orderTotal)} data-testid="order-total">
          {assetAmountText(order.pay_amount, order.pay_asset)} {order.pay_asset}
        </dd>
      </div>
      <Fact label={t('store.order.priceBasis')} value={t(basis.key, { price: basis.price ? formatMoney(basis.price, 6) : '' })} />
      {order.status === 'unpaid' && order.expires_at ? <Fact label={t('store.order.payBefore')} value={formatDateTime(order.expires_at, tag)} /> : null}
      {order.paid_at ? <Fact label={t('store.order.paidAt')} value={formatDateTime(order.paid_at, tag)} /> : null}
      {order.cancelled_at ? <Fact label={t('store.order.cancelledAt')} value={formatDateTime(order.cancelled_at, tag)} /> : null}
      {order.refunded_at ? <Fact label={t('store.order.refundedAt')} value={formatDateTime(order.refunded_at, tag)} /> : null}
      <Fact label={t('store.order.remark')} value={order.remark || t('store.order.noRemark')} isFaint={!order.remark} />
    </dl>
  );
}

/** Courier company and number, ship and confirm times, and when an unconfirmed order completes by itself. */
function ShippingCard({ order }: { order: StoreOrderDetail }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  if (!order.ship_time && !order.courier_number) return null;
  const autoAt = autoConfirmAt(order);
  return (
    <section className="card" aria-labelledby="order-shipping-title" data-testid="order-shipping">
      <h2 id="order-shipping-title" className={storeStyles.orderCardTitle}>
        {t('store.order.shipping')}
      </h2>
      <dl className={moneyStyles.facts}>
        {order.courier_company ? <Fact label={t('store.order.courier')} value={order.courier_company} /> : null}
        {order.courier_number ? (
          <Fact
            label={t('store.order.courierNumber')}
            value={
              <span className={storeStyles.orderCopy}>
                <span className="mono">{order.courier_number}</span>
                <CopyButton text={order.courier_number} label={t('store.order.copyCourierNumber')} />
              </span>
            }
          />
        ) : null}
        {order.ship_time ? <Fact label={t('store.order.shipTime')} value={formatDateTime(order.ship_time, tag)} /> : null}
        {order.confirm_time ? (
          <Fact
            label={t('store.order.confirmTime')}
            value={
              <>
                {formatDateTime(order.confirm_time, tag)}
                {order.is_auto_confirmed ? <span className={cx(moneyStyles.chip, storeStyles.orderAutoChip)}>{t('store.order.autoConfirmed')}</span> : null}
              </>
            }
          />
        ) : null}
        {autoAt ? <Fact label={t('store.order.autoConfirmAt')} value={formatDateTime(autoAt, tag)} /> : null}
      </dl>
    </section>
  );
}

/** The devices in the box; once received, an unactivated one links to activation (the code is on its card). */
function DevicesCard({ order }: { order: StoreOrderDetail }) {
  const { t } = useTranslation();
  if (order.devices.length === 0) return null;
  const isReceived = order.status === 'completed';
  return (
    <section className="card" aria-labelledby="order-devices-title" data-testid="order-devices">
      <h2 id="order-devices-title" className={storeStyles.orderCardTitle}>
        {t('store.order.devices')}
      </h2>
      {isReceived && order.devices.some((device) => !device.is_activated) ? (
        <p className={cx(moneyStyles.formHint, storeStyles.orderDevicesHint)}>{t('store.order.devicesHint')}</p>
      ) : null}
      <ul className={storeStyles.orderDevices}>
        {order.devices.map((device) => (
          <li key={device.serial} className={storeStyles.orderDevice} data-testid="order-device">
            <div className={storeStyles.orderDeviceText}>
              <p className={cx('mono', storeStyles.orderDeviceSerial)}>{device.serial}</p>
              <p className={storeStyles.orderDeviceModel}>{device.model}</p>
            </div>
            {device.is_activated ? (
              <span className={cx(storeStyles.statusChip, moneyStyles.statusChip, moneyStyles.statusChipDone)}>{t('store.order.activated')}</span>
            ) : isReceived ? (
              <Link to="/mining/activate" className="btn btn--small" data-testid="order-device-activate">
                {t('store.order.activate')}
              </Link>
            ) : (
              <span className={cx(storeStyles.statusChip, moneyStyles.statusChip)}>{t('store.order.notActivated')}</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Fact({ label, value, isNumber = false, isFaint = false }: { label: string; value: ReactNode; isNumber?: boolean; isFaint?: boolean }) {
  return (
    <div className={cx(confirmStyles.factsRow, storeStyles.factsRow, moneyStyles.factsRow)}>
      <dt>{label}</dt>
      <dd className={cx(isNumber && 'mono', isFaint && moneyStyles.factsFaint) || undefined}>{value}</dd>
    </div>
  );
}
