import { useTranslation } from '../../../lib/translator.ts';
import type { MarketOrder } from '@nadi/api/market';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { confirmDialog } from '../../../lib/confirm-dialog.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { formatMoney, formatPrice, formatQuantity, parseSignedAmount } from '../../../lib/money-format.ts';
import { notify } from '../../../lib/notify.ts';
import { submitErrorText } from '../../../lib/submit-error.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useCancelOrder } from '../api/cancel-order.ts';
import { useFills } from '../api/get-fills.ts';
import { useOrders, type OrdersTab } from '../api/get-orders.ts';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './trade.module.css';

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className="mono">{value}</dd>
    </div>
  );
}

function OrderItem({ order, isOpen }: { order: MarketOrder; isOpen: boolean }) {
  const { t } = useTranslation();
  const lang = useLang();
  const cancel = useCancelOrder();
  const show = (text: string | null, digits = 4) => (text === null ? '—' : formatMoney(text, digits));
  const showPrice = (text: string | null) => (text === null ? '—' : formatPrice(text));

  async function askCancel() {
    const isSure = await confirmDialog({ content: t('trade.orders.cancelConfirm'), confirmText: t('trade.orders.cancel'), cancelText: t('common.back') });
    if (!isSure) return;
    cancel.mutate(order.id, {
      onSuccess: () => notify(t('trade.orders.cancelled'), 'success'),
      onError: (error) => notify(`${t('trade.orders.cancelFailed')} ${submitErrorText(error, t)}`, 'fail'),
    });
  }

  return (
    <article className={cx(styles.orderItem, 'card')} data-testid="order-item" data-order-id={order.id} data-status={order.status}>
      <header className={styles.orderItemHead}>
        <span className={cx(styles.orderItemSide, order.side === 'buy' ? styles.isUp : styles.isDown)}>
          {t(`trade.side.${order.side}`)} · {t(`trade.type.${order.type}`)}
        </span>
        <span className={cx(moneyStyles.chip, 'order-item__status', variant(styles, `order-item__status--${order.status}`))}>
          {t(`trade.status.${order.status}`)}
        </span>
      </header>
      <dl className={styles.orderItemFacts}>
        <Fact label={t('trade.orders.price')} value={order.type === 'market' ? t('trade.type.market') : showPrice(order.price)} />
        <Fact label={t('trade.orders.amount')} value={order.amount === null ? `${show(order.quote_amount)} USDT` : formatQuantity(order.amount)} />
        <Fact label={t('trade.orders.filled')} value={formatQuantity(order.filled_amount)} />
        {/* Nothing filled yet: there is no average price (the server sends 0). */}
        <Fact label={t('trade.orders.avgPrice')} value={parseSignedAmount(order.filled_amount) ? showPrice(order.avg_price) : '—'} />
        <Fact label={t('trade.orders.total')} value={show(order.total)} />
        <Fact label={t('trade.orders.fee')} value={`${show(order.fee, 6)} ${order.fee_asset}`} />
      </dl>
      <footer className={styles.orderItemFoot}>
        <time className={styles.orderItemTime}>{formatDateTime(order.created_at, langTags[lang])}</time>
        {isOpen ? (
          <button type="button" className="btn btn--ghost btn--small" data-testid="order-cancel" disabled={cancel.isPending} onClick={() => void askCancel()}>
            {t('trade.orders.cancel')}
          </button>
        ) : null}
      </footer>
    </article>
  );
}

export function OrdersList({ tab, refetchMs }: { tab: OrdersTab; refetchMs: number | false }) {
  const { t } = useTranslation();
  const query = useOrders(tab, refetchMs);
  return (
    <InfiniteList
      query={query}
      getKey={(order) => order.id}
      renderItem={(order) => <OrderItem order={order} isOpen={tab === 'current'} />}
      errorTitle={t('trade.orders.loadFailed')}
      empty={{ title: t(tab === 'current' ? 'trade.orders.emptyCurrent' : 'trade.orders.emptyHistory'), icon: 'list' }}
    />
  );
}

export function FillsList({ refetchMs }: { refetchMs: number | false }) {
  const { t } = useTranslation();
  const lang = useLang();
  const query = useFills(refetchMs);
  return (
    <InfiniteList
      query={query}
      getKey={(fill) => fill.trade_id * 2 + (fill.role === 'maker' ? 0 : 1)}
      renderItem={(fill) => (
        <article className={cx(styles.orderItem, 'card')} data-testid="fill-item">
          <header className={styles.orderItemHead}>
            <span className={cx(styles.orderItemSide, fill.side === 'buy' ? styles.isUp : styles.isDown)}>{t(`trade.side.${fill.side}`)}</span>
            <span className={moneyStyles.chip}>{t(`trade.role.${fill.role}`)}</span>
          </header>
          <dl className={styles.orderItemFacts}>
            <Fact label={t('trade.orders.price')} value={formatPrice(fill.price)} />
            <Fact label={t('trade.orders.amount')} value={formatQuantity(fill.amount)} />
            <Fact label={t('trade.orders.total')} value={formatMoney(fill.total, 4)} />
            <Fact label={t('trade.orders.fee')} value={`${formatMoney(fill.fee, 6)} ${fill.fee_asset}`} />
          </dl>
          <footer className={styles.orderItemFoot}>
            <time className={styles.orderItemTime}>{formatDateTime(fill.created_at, langTags[lang])}</time>
          </footer>
        </article>
      )}
      errorTitle={t('trade.orders.loadFailed')}
      empty={{ title: t('trade.orders.emptyFills'), icon: 'list' }}
    />
  );
}
