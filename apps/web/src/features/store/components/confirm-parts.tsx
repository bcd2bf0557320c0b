import { useTranslation } from 'react-i18next';
import type { ProductDetail, StorePayAsset, StorePayMethod, StoreQuote } from '@nadi/api/store';
import { remarkMax } from '@nadi/api/store';
import { Segmented } from '../../../components/segmented.tsx';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { payAssetOptions, payMethodOptions, quoteFacts } from '../confirm-order.ts';
import { clampQuantity, quantityBounds } from '../product-view.ts';
import { ProductImage } from './product-image.tsx';

/** One product of the order with its quantity stepper, bounded by the stock and the per-order limit. */
export function ItemRow({
  product,
  quantity,
  isDisabled,
  onQuantity,
}: {
  product: ProductDetail;
  quantity: number;
  isDisabled: boolean;
  onQuantity: (next: number) => void;
}) {
  const { t } = useTranslation();
  const bounds = quantityBounds(product);
  const unavailableKey = product.is_on_sale ? 'orderConfirm.soldOut' : 'orderConfirm.offSale';
  return (
    <article className="confirm-item" data-testid="confirm-item">
      <ProductImage imageKey={product.image} alt={product.name} className="confirm-item__image" />
      <div className="confirm-item__main">
        <h3 className="confirm-item__name">{product.name}</h3>
        <p className="confirm-item__price mono">{formatMoney(product.price_usdt, amountDigitsShown)} USDT</p>
        {bounds.max >= bounds.min ? (
          <p className="confirm-item__limits">{t('orderConfirm.limits', { max: bounds.max, stock: product.stock })}</p>
        ) : (
          <span className="chip confirm-item__out">{t(unavailableKey)}</span>
        )}
      </div>
      <div className="stepper-input" role="group" aria-label={t('orderConfirm.quantity', { name: product.name })}>
        <button
          type="button"
          className="stepper-input__btn"
          onClick={() => onQuantity(clampQuantity(quantity - 1, bounds))}
          disabled={isDisabled || quantity <= bounds.min}
          aria-label={t('orderConfirm.less')}
        >
          −
        </button>
        <output className="stepper-input__value mono" data-testid="confirm-quantity" aria-live="polite">
          {quantity}
        </output>
        <button
          type="button"
          className="stepper-input__btn"
          onClick={() => onQuantity(clampQuantity(quantity + 1, bounds))}
          disabled={isDisabled || quantity >= bounds.max}
          aria-label={t('orderConfirm.more')}
        >
          +
        </button>
      </div>
    </article>
  );
}

interface PayProps {
  method: StorePayMethod;
  asset: StorePayAsset;
  isDisabled: boolean;
  onChange: (method: StorePayMethod, asset: StorePayAsset) => void;
}

/** The pay method (fund account, destroy quota, wallet) and, where it takes both, the asset. */
export function PaySection({ method, asset, isDisabled, onChange }: PayProps) {
  const { t } = useTranslation();
  const assets = payAssetOptions(method);
  const hintKey = payMethodOptions.find((option) => option.value === method)?.hintKey;
  return (
    <section className="confirm-section" aria-labelledby="confirm-pay-title">
      <h2 id="confirm-pay-title" className="confirm-section__title">
        {t('orderConfirm.payWith')}
      </h2>
      <fieldset className="confirm-pay" disabled={isDisabled}>
        <Segmented
          label={t('orderConfirm.payWith')}
          value={method}
          options={payMethodOptions.map((option) => ({ value: option.value, label: t(option.labelKey) }))}
          onChange={(next) => onChange(next, asset)}
        />
        {assets.length > 1 ? (
          <Segmented
            label={t('orderConfirm.payAsset')}
            value={asset}
            options={assets.map((value) => ({ value, label: value }))}
            onChange={(next) => onChange(method, next)}
          />
        ) : null}
      </fieldset>
      {hintKey ? (
        <p className="form-hint" data-testid="confirm-method-hint">
          {t(hintKey)}
        </p>
      ) : null}
    </section>
  );
}

/** The quote: total in USDT, the NADI price and its source, what will be charged, what the paying account holds, the power. */
export function QuoteFactsList({ quote, method }: { quote: StoreQuote; method: StorePayMethod }) {
  const { t } = useTranslation();
  const facts = quoteFacts(quote);
  const show = (text: string) => formatMoney(text, amountDigitsShown);
  return (
    <dl className="facts confirm-facts">
      <div className="facts__row">
        <dt>{t('orderConfirm.itemCount')}</dt>
        <dd className="mono">{quote.item_count}</dd>
      </div>
      <div className="facts__row">
        <dt>{t('orderConfirm.total')}</dt>
        <dd className="mono" data-testid="confirm-total">
          {show(quote.total_usdt)} USDT
        </dd>
      </div>
      {facts.isPriced && quote.price !== null ? (
        <div className="facts__row">
          <dt>{t('orderConfirm.price')}</dt>
          <dd className="confirm-facts__price">
            <span className="mono">{t('orderConfirm.priceValue', { price: formatMoney(quote.price, 6) })}</span>
            {quote.price_source ? (
              <span className={`chip${quote.price_source === 'market' ? ' chip--accent' : ''}`}>{t(`orderConfirm.priceSource.${quote.price_source}`)}</span>
            ) : null}
          </dd>
        </div>
      ) : null}
      <div className="facts__row facts__row--pay">
        <dt>{t('orderConfirm.toPay')}</dt>
        <dd className="mono" data-testid="confirm-pay-amount">
          {show(quote.pay_amount)} {quote.pay_asset}
        </dd>
      </div>
      {quote.available !== null ? (
        <div className="facts__row">
          <dt>{t(method === 'credit' ? 'orderConfirm.availableCredit' : 'orderConfirm.availableBalance')}</dt>
          <dd className={`mono${facts.isShort ? ' confirm-facts__short' : ''}`} data-testid="confirm-available">
            {show(quote.available)} {quote.pay_asset}
          </dd>
        </div>
      ) : null}
      <div className="facts__row facts__row--power">
        <dt>{t('orderConfirm.power')}</dt>
        <dd className="mono">+{quote.power} P</dd>
      </div>
    </dl>
  );
}

/** The remark for the operator, with what is left of its limit. */
export function RemarkField({ value, isDisabled, onChange }: { value: string; isDisabled: boolean; onChange: (text: string) => void }) {
  const { t } = useTranslation();
  return (
    <section className="confirm-section">
      <div className="confirm-remark__head">
        <label htmlFor="confirm-remark" className="field-label">
          {t('orderConfirm.remark')}
        </label>
        <span className="confirm-remark__count mono">
          {value.length}/{remarkMax}
        </span>
      </div>
      <textarea
        id="confirm-remark"
        className="address-input address-input--area"
        rows={2}
        maxLength={remarkMax}
        value={value}
        placeholder={t('orderConfirm.remarkPlaceholder')}
        onChange={(event) => onChange(event.target.value.slice(0, remarkMax))}
        disabled={isDisabled}
        data-testid="confirm-remark"
      />
    </section>
  );
}
