import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
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
import '../../../components/money.css';
import './store.css';

const ordersPath = '/store/orders';

/** /store (the footer's "mall" tab): the devices on sale and the way to my orders. Open to everyone. */
export default function StorePage() {
  const { t } = useTranslation();
  const products = useProducts();
  return (
    <div className="money-screen store-page">
      <header className="store-hero">
        <h1 className="store-hero__title">{t('store.home.title')}</h1>
        <p className="store-hero__text">{t('store.home.subtitle')}</p>
      </header>
      <MyOrdersEntry />
      <section className="records" aria-labelledby="store-products-title">
        <h2 id="store-products-title" className="store-section-title">
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
    <Link to={ordersPath} className="store-entry card" onClick={onClick} data-testid="store-my-orders">
      <span className="store-entry__icon" aria-hidden="true">
        <Icon name="truck" size={20} />
      </span>
      <span className="store-entry__text">
        <span className="store-entry__title">{t('store.home.myOrders')}</span>
        <span className="store-entry__hint">{t('store.home.myOrdersHint')}</span>
      </span>
      <Icon name="chevron" size={18} className="store-entry__chevron" />
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
    <Link to={`/store/product/${product.id}`} className={`product-card card${isSoldOut ? ' product-card--sold-out' : ''}`} data-testid="product-card">
      <span className="product-card__media">
        <ProductImage imageKey={product.image} alt={product.name} />
        {isSoldOut ? <span className="product-card__badge">{t('store.product.soldOut')}</span> : null}
      </span>
      <span className="product-card__body">
        <span className="product-card__name">{product.name}</span>
        {product.summary ? <span className="product-card__summary">{product.summary}</span> : null}
        <span className="product-card__power">
          <Icon name="bolt" size={14} />
          <span className="mono">{powerFor(product)} P</span>
        </span>
        {hasGift ? (
          <span className="product-card__split">
            {t('store.product.powerSplit', { base: formatPower(product.base_power), gift: formatPower(product.gift_power) })}
          </span>
        ) : null}
        <span className="product-card__foot">
          <span className="product-card__price mono">
            {totalFor(product.price_usdt, 1)}
            <span className="product-card__asset">USDT</span>
          </span>
          <span className={`product-card__stock product-card__stock--${stock.tone}`}>{t(stock.key, { stock: product.stock })}</span>
        </span>
      </span>
    </Link>
  );
}
