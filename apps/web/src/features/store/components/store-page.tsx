import type { MouseEvent } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import type { ProductItem } from '@nadi/api/store';
import { Icon } from '../../../components/icon.tsx';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { formatPower, parsePower } from '../../../lib/power-format.ts';
import { requestSignIn } from '../../../lib/sign-in-request.ts';
import { useSession } from '../../../lib/use-session.ts';
import { useProducts } from '../api/get-products.ts';
import { powerFor, stockView, totalFor } from '../product-view.ts';
import { ProductImage } from './product-image.tsx';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './store.module.css';

const ordersPath = '/store/orders';

/** /store (the footer's "mall" tab): the devices on sale and the way to my orders. Open to everyone. */
export default function StorePage() {
  const { t } = useTranslation();
  const products = useProducts();
  return (
    <div className={cx(moneyStyles.moneyScreen, 'store-page')}>
      <header className={styles.storeHero}>
        <h1 className={styles.storeHeroTitle}>{t('store.home.title')}</h1>
        <p className={styles.storeHeroText}>{t('store.home.subtitle')}</p>
      </header>
      <MyOrdersEntry />
      <section className={moneyStyles.records} aria-labelledby="store-products-title">
        <h2 id="store-products-title" className={styles.storeSectionTitle}>
          {t('store.home.devices')}
        </h2>
        <InfiniteList
          query={products}
          getKey={(product) => product.id}
          renderItem={(product) => <ProductCard product={product} />}
          errorTitle={t('store.home.loadFailed')}
          empty={{ title: t('store.home.empty'), hint: t('store.home.emptyHint'), icon: 'bag' }}
        />
      </section>
    </div>
  );
}

/** Orders need a session: a signed-out visitor is asked to sign in, then taken there. */
function MyOrdersEntry() {
  const { t } = useTranslation();
  const { isSignedIn } = useSession();
  function onClick(event: MouseEvent) {
    if (isSignedIn) return;
    event.preventDefault();
    requestSignIn({ redirectTo: ordersPath });
  }
  return (
    <Link to={ordersPath} className={cx(styles.storeEntry, 'card')} onClick={onClick} data-testid="store-my-orders">
      <span className={styles.storeEntryIcon} aria-hidden="true">
        <Icon name="truck" size={20} />
      </span>
      <span className={styles.storeEntryText}>
        <span className={styles.storeEntryTitle}>{t('store.home.myOrders')}</span>
        <span className={styles.storeEntryHint}>{t('store.home.myOrdersHint')}</span>
      </span>
      <Icon name="chevron" size={18} className={styles.storeEntryChevron} />
    </Link>
  );
}

function ProductCard({ product }: { product: ProductItem }) {
  const { t } = useTranslation();
  const stock = stockView(product);
  const isSoldOut = stock.tone === 'none';
  // Without gift power the total is the base power: the split would say nothing more.
  const hasGift = (parsePower(product.gift_power) ?? 0n) > 0n;
  return (
    <Link to={`/store/product/${product.id}`} className={cx(styles.productCard, 'card', isSoldOut && styles.productCardSoldOut)} data-testid="product-card">
      <span className={styles.productCardMedia}>
        <ProductImage imageKey={product.image} alt={product.name} />
        {isSoldOut ? <span className={styles.productCardBadge}>{t('store.product.soldOut')}</span> : null}
      </span>
      <span className={styles.productCardBody}>
        <span className={styles.productCardName}>{product.name}</span>
        {product.summary ? <span className={styles.productCardSummary}>{product.summary}</span> : null}
        <span className={styles.productCardPower}>
          <Icon name="bolt" size={14} />
          <span className="mono">{powerFor(product)} P</span>
        </span>
        {hasGift ? (
          <span className={styles.productCardSplit}>
            {t('store.product.powerSplit', { base: formatPower(product.base_power), gift: formatPower(product.gift_power) })}
          </span>
        ) : null}
        <span className={styles.productCardFoot}>
          <span className={cx(styles.productCardPrice, 'mono')}>
            {totalFor(product.price_usdt, 1)}
            <span className={styles.productCardAsset}>USDT</span>
          </span>
          <span className={cx(styles.productCardStock, variant(styles, `product-card__stock--${stock.tone}`))}>{t(stock.key, { stock: product.stock })}</span>
        </span>
      </span>
    </Link>
  );
}
