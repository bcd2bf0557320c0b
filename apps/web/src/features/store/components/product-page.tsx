import { useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Link, useNavigate, useParams } from 'react-router';
import type { ProductDetail } from '@nadi/api/store';
import { Icon } from '../../../components/icon.tsx';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { formatPower } from '../../../lib/power-format.ts';
import { requestSignIn } from '../../../lib/sign-in-request.ts';
import { useSession } from '../../../lib/use-session.ts';
import { useProduct } from '../api/get-product.ts';
import { clampQuantity, powerFor, quantityBounds, stockView, totalFor, type QuantityBounds } from '../product-view.ts';
import { parseRouteId, productIdMax } from '../../../lib/route-id.ts';
import { startTempOrder } from '../temp-order.ts';
import { ProductImage } from './product-image.tsx';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import storeStyles from './store.module.css';
import confirmStyles from './confirm.module.css';

const confirmPath = '/store/confirm';

/** /store/product/:id: a device model with its power, price, stock and specifications, and "buy now". */
export default function ProductPage() {
  const { t } = useTranslation();
  const id = parseRouteId(useParams().id, productIdMax);
  const product = useProduct(id);
  if (id === null) {
    return (
      <div className={storeStyles.storeMissing}>
        <EmptyView title={t('store.product.badId')} icon="alert" />
        <BackToStore />
      </div>
    );
  }
  if (product.isPending) return <LoadingView />;
  if (!product.data) {
    return <ErrorView title={t('store.product.loadFailed')} error={product.error} onRetry={() => void product.refetch()} action={<BackToStore />} />;
  }
  return <ProductView product={product.data} />;
}

function BackToStore() {
  const { t } = useTranslation();
  return (
    <Link to="/store" className={moneyStyles.textLink}>
      {t('store.product.backToStore')}
    </Link>
  );
}

function ProductView({ product }: { product: ProductDetail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { isSignedIn } = useSession();
  const bounds = quantityBounds(product);
  const [wanted, setWanted] = useState(1);
  // The stock may fall under the chosen quantity when the product is read again.
  const quantity = clampQuantity(wanted, bounds);
  const stock = stockView(product);
  const canBuy = bounds.max >= bounds.min;

  function buyNow() {
    if (!canBuy) return;
    startTempOrder(product.id, quantity);
    // Signed out: the temporary order waits in session storage while the user signs in, then the confirmation opens.
    if (!isSignedIn) requestSignIn({ redirectTo: confirmPath });
    else void navigate(confirmPath);
  }

  return (
    <div className={cx(moneyStyles.moneyScreen, storeStyles.productPage)} data-testid="product-page">
      <div className={cx(storeStyles.productPageMedia, 'card')}>
        <ProductImage imageKey={product.image} alt={product.name} />
      </div>
      <header className={storeStyles.productPageHead}>
        <h1 className={storeStyles.productPageName}>{product.name}</h1>
        {product.summary ? <p className={storeStyles.productPageSummary}>{product.summary}</p> : null}
        <div className={storeStyles.productPagePriceRow}>
          <p className={cx(storeStyles.productPagePrice, 'mono')} data-testid="product-price">
            {totalFor(product.price_usdt, 1)}
            <span className={storeStyles.productPageAsset}>USDT</span>
          </p>
          <span className={cx(storeStyles.productCardStock, variant(storeStyles, `product-card__stock--${stock.tone}`))}>
            {t(stock.key, { stock: product.stock })}
          </span>
        </div>
      </header>
      <PowerCard product={product} />
      {canBuy ? <QuantityCard product={product} bounds={bounds} quantity={quantity} onChange={setWanted} /> : null}
      <FactsCard product={product} />
      <SpecsCard product={product} />
      <div className={storeStyles.buyBar}>
        <div className={storeStyles.buyBarTotal}>
          <span className={storeStyles.buyBarLabel}>{t('store.product.total')}</span>
          <span className={cx(storeStyles.buyBarAmount, 'mono')} data-testid="product-total">
            {totalFor(product.price_usdt, canBuy ? quantity : 0)} <span className={storeStyles.productPageAsset}>USDT</span>
          </span>
        </div>
        <button type="button" className={cx('btn', storeStyles.buyBarButton)} onClick={buyNow} disabled={!canBuy} data-testid="product-buy">
          {!canBuy ? t(product.is_on_sale ? 'store.product.soldOut' : 'store.product.unavailable') : t('store.product.buyNow')}
        </button>
      </div>
    </div>
  );
}

/** The power one device brings (docs/product.md section 3): base and gift, and their sum. */
function PowerCard({ product }: { product: ProductDetail }) {
  const { t } = useTranslation();
  return (
    <section className={cx(storeStyles.productPower, 'card')} aria-labelledby="product-power-title">
      <div className={storeStyles.productPowerHead}>
        <span className={storeStyles.productPowerIcon} aria-hidden="true">
          <Icon name="bolt" size={18} />
        </span>
        <h2 id="product-power-title" className={storeStyles.productPowerTitle}>
          {t('store.product.power')}
        </h2>
        <p className={cx(storeStyles.productPowerTotal, 'mono')} data-testid="product-power">
          {powerFor(product)} P
        </p>
      </div>
      <dl className={storeStyles.productPowerSplit}>
        <div>
          <dt>{t('store.product.basePower')}</dt>
          <dd className="mono">{formatPower(product.base_power)} P</dd>
        </div>
        <div>
          <dt>{t('store.product.giftPower')}</dt>
          <dd className="mono">+{formatPower(product.gift_power)} P</dd>
        </div>
      </dl>
    </section>
  );
}

interface QuantityProps {
  product: ProductDetail;
  bounds: QuantityBounds;
  quantity: number;
  onChange: (quantity: number) => void;
}

/** The quantity stepper, bounded by the stock and the per-order limit; says which one binds. */
function QuantityCard({ product, bounds, quantity, onChange }: QuantityProps) {
  const { t } = useTranslation();
  // The field may be empty while the user types another number; the quantity stays the last valid one.
  const [isEmpty, setIsEmpty] = useState(false);
  const limitKey = bounds.limitedBy === 'stock' ? 'store.product.limitStock' : 'store.product.limitPerOrder';
  return (
    <section className={cx(storeStyles.quantityCard, 'card')}>
      <div className={storeStyles.quantityCardRow}>
        <label htmlFor="product-quantity" className={moneyStyles.fieldLabel}>
          {t('store.product.quantity')}
        </label>
        <div className={storeStyles.stepperField}>
          <button
            type="button"
            className={storeStyles.stepperFieldBtn}
            onClick={() => onChange(clampQuantity(quantity - 1, bounds))}
            disabled={quantity <= bounds.min}
            aria-label={t('store.product.decrease')}
            data-testid="quantity-decrease"
          >
            −
          </button>
          <input
            id="product-quantity"
            className={cx(storeStyles.stepperFieldInput, 'mono')}
            inputMode="numeric"
            value={isEmpty ? '' : quantity}
            onChange={(event) => {
              const digits = event.target.value.replace(/\D/g, '').slice(0, 6);
              setIsEmpty(digits === '');
              if (digits !== '') onChange(clampQuantity(Number(digits), bounds));
            }}
            onBlur={() => setIsEmpty(false)}
            aria-describedby="product-quantity-limit"
            data-testid="quantity-input"
          />
          <button
            type="button"
            className={storeStyles.stepperFieldBtn}
            onClick={() => onChange(clampQuantity(quantity + 1, bounds))}
            disabled={quantity >= bounds.max}
            aria-label={t('store.product.increase')}
            data-testid="quantity-increase"
          >
            +
          </button>
        </div>
      </div>
      <p id="product-quantity-limit" className={moneyStyles.formHint}>
        {t(limitKey, { max: bounds.max })}
      </p>
      <p className={storeStyles.quantityCardPower}>
        <Icon name="bolt" size={14} />
        {t('store.product.orderPower', { power: powerFor(product, quantity) })}
      </p>
    </section>
  );
}

function FactsCard({ product }: { product: ProductDetail }) {
  const { t } = useTranslation();
  return (
    <dl className={cx(moneyStyles.facts, 'card')}>
      <div className={cx(confirmStyles.factsRow, storeStyles.factsRow, moneyStyles.factsRow)}>
        <dt>{t('store.product.stock')}</dt>
        <dd className="mono">{product.stock}</dd>
      </div>
      <div className={cx(confirmStyles.factsRow, storeStyles.factsRow, moneyStyles.factsRow)}>
        <dt>{t('store.product.sold')}</dt>
        <dd className="mono">{product.sold}</dd>
      </div>
      <div className={cx(confirmStyles.factsRow, storeStyles.factsRow, moneyStyles.factsRow)}>
        <dt>{t('store.product.perOrderMax')}</dt>
        <dd className="mono">{product.per_order_max}</dd>
      </div>
      <div className={cx(confirmStyles.factsRow, storeStyles.factsRow, moneyStyles.factsRow)}>
        <dt>{t('store.product.model')}</dt>
        <dd className="mono">{product.model_code}</dd>
      </div>
    </dl>
  );
}

/** The specification lines: keys translated, values literal ("16 GB"). */
function SpecsCard({ product }: { product: ProductDetail }) {
  const { t } = useTranslation();
  if (product.specs.length === 0) return null;
  return (
    <section className={moneyStyles.records} aria-labelledby="product-specs-title">
      <h2 id="product-specs-title" className={storeStyles.storeSectionTitle}>
        {t('store.product.specs')}
      </h2>
      <table className={cx(storeStyles.specTable, 'card')} data-testid="product-specs">
        <tbody>
          {product.specs.map((spec) => (
            <tr key={spec.key}>
              <th scope="row">{t(`store.spec.${spec.key}`)}</th>
              <td>{spec.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
