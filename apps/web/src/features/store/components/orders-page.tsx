import { useTranslation } from '../../../lib/translator.ts';
import { Link, useSearchParams } from 'react-router';
import type { StoreOrderItem } from '@nadi/api/store';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { Segmented } from '../../../components/segmented.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useOrders } from '../api/get-orders.ts';
import { useReceiptAction } from '../hooks/use-order-actions.ts';
import { assetAmountText, itemsSummary, orderStatusView, orderTabOptions, tabFromParam, tabStatus, type OrderTabOption } from '../order-view.ts';
import { ProductImage } from './product-image.tsx';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './store.module.css';

/** /store/orders: my orders by tab (all, to ship, to receive, completed), ten a page, newest first. */
export default function OrdersPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  // The tab lives in the address, so coming back from an order shows the same tab.
  const tab = tabFromParam(params.get('tab'));
  const orders = useOrders(tabStatus(tab));
  const receipt = useReceiptAction();

  function selectTab(next: OrderTabOption) {
    setParams(next === 'all' ? {} : { tab: next }, { replace: true });
  }

  return (
    <div className={cx(moneyStyles.moneyScreen, styles.ordersPage)}>
      <Segmented
        label={t('store.orders.tabs')}
        value={tab}
        options={orderTabOptions.map((value) => ({ value, label: t(`store.tab.${value}`) }))}
        onChange={selectTab}
        itemClassName={styles.segmentedItem}
      />
      <div className={moneyStyles.records}>
        <InfiniteList
          query={orders}
          getKey={(order) => order.id}
          renderItem={(order) => <OrderCard order={order} isConfirming={receipt.pendingId === order.id} onConfirmReceipt={() => void receipt.run(order.id)} />}
          errorTitle={t('store.orders.loadFailed')}
          empty={
            tab === 'all'
              ? { title: t('store.orders.empty'), hint: t('store.orders.emptyHint'), icon: 'bag' }
              : { title: t('store.orders.emptyTab'), hint: t('store.orders.emptyTabHint'), icon: 'inbox' }
          }
        />
      </div>
    </div>
  );
}

interface CardProps {
  order: StoreOrderItem;
  isConfirming: boolean;
  onConfirmReceipt: () => void;
}

/** One order: number and status, what was bought, the actual total; a shipped one can be confirmed here. */
function OrderCard({ order, isConfirming, onConfirmReceipt }: CardProps) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const status = orderStatusView(order.status);
  const { first, moreCount } = itemsSummary(order);
  return (
    <article className={cx(styles.orderCard, 'card')} data-testid="order-card">
      <Link to={`/store/orders/${order.id}`} className={styles.orderCardLink}>
        <header className={styles.orderCardHead}>
          <span className={cx(styles.orderCardNo, 'mono')}>{order.order_no}</span>
          <span className={cx(styles.statusChip, moneyStyles.statusChip, variant(styles, `order-status--${status.tone}`))} data-testid="order-status">
            {t(status.key)}
          </span>
        </header>
        {first ? (
          <div className={styles.orderCardItem}>
            <ProductImage imageKey={first.image} alt={first.name} className={styles.orderCardThumb} />
            <div className={styles.orderCardItemText}>
              <p className={styles.orderCardName}>{first.name}</p>
              <p className={styles.orderCardMeta}>
                <span className="mono">
                  {assetAmountText(first.price_usdt, 'USDT')} USDT × {first.quantity}
                </span>
                {moreCount > 0 ? <span>{t('store.orders.more', { more: moreCount })}</span> : null}
              </p>
            </div>
          </div>
        ) : null}
        <footer className={styles.orderCardFoot}>
          <time className={moneyStyles.recordDate} dateTime={order.created_at}>
            {formatDateTime(order.created_at, tag)}
          </time>
          <span className={styles.orderCardTotal}>
            <span className={styles.orderCardCount}>{t('store.orders.itemCount', { items: order.item_count })}</span>
            {t('store.orders.total')}{' '}
            <b className="mono">
              {assetAmountText(order.pay_amount, order.pay_asset)} {order.pay_asset}
            </b>
          </span>
        </footer>
        {order.status === 'unpaid' && order.expires_at ? (
          <p className={styles.orderCardNote}>{t('store.orders.payBefore', { time: formatDateTime(order.expires_at, tag) })}</p>
        ) : null}
      </Link>
      {order.status === 'to_receive' ? (
        <div className={styles.orderCardActions}>
          <button type="button" className="btn btn--small" onClick={onConfirmReceipt} disabled={isConfirming} data-testid="order-confirm-receipt">
            {isConfirming ? t('store.order.confirming') : t('store.order.confirmReceipt')}
          </button>
        </div>
      ) : null}
    </article>
  );
}
