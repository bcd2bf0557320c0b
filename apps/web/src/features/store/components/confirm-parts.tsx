import { useTranslation } from '../../../lib/translator.ts';
import type { ProductDetail, StorePayAsset, StorePayMethod, StoreQuote } from '@nadi/api/store';
import { remarkMax } from '@nadi/api/store';
import { Segmented } from '../../../components/segmented.tsx';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { payAssetOptions, payMethodOptions, quoteFacts } from '../confirm-order.ts';
import { clampQuantity, quantityBounds } from '../product-view.ts';
import { ProductImage } from './product-image.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import confirmStyles from './confirm.module.css';
import storeStyles from './store.module.css';
import addressStyles from './address.module.css';

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
    <article className={confirmStyles.confirmItem} data-testid="confirm-item">
      <ProductImage imageKey={product.image} alt={product.name} className={confirmStyles.confirmItemImage} />
      <div className={confirmStyles.confirmItemMain}>
        <h3 className={confirmStyles.confirmItemName}>{product.name}</h3>
        <p className={cx(confirmStyles.confirmItemPrice, 'mono')}>{formatMoney(product.price_usdt, amountDigitsShown)} USDT</p>
        {bounds.max >= bounds.min ? (
          <p className={confirmStyles.confirmItemLimits}>{t('orderConfirm.limits', { max: bounds.max, stock: product.stock })}</p>
        ) : (
          <span className={cx(moneyStyles.chip, confirmStyles.confirmItemOut)}>{t(unavailableKey)}</span>
        )}
      </div>
      <div className={confirmStyles.stepperInput} role="group" aria-label={t('orderConfirm.quantity', { name: product.name })}>
        <button
          type="button"
          className={confirmStyles.stepperInputBtn}
          onClick={() => onQuantity(clampQuantity(quantity - 1, bounds))}
          disabled={isDisabled || quantity <= bounds.min}
          aria-label={t('orderConfirm.less')}
        >
          −
        </button>
        <output className={cx(confirmStyles.stepperInputValue, 'mono')} data-testid="confirm-quantity" aria-live="polite">
          {quantity}
        </output>
        <button
          type="button"
          className={confirmStyles.stepperInputBtn}
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
    <section className={confirmStyles.confirmSection} aria-labelledby="confirm-pay-title">
      <h2 id="confirm-pay-title" className={confirmStyles.confirmSectionTitle}>
        {t('orderConfirm.payWith')}
      </h2>
      <fieldset className={confirmStyles.confirmPay} disabled={isDisabled}>
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
        <p className={moneyStyles.formHint} data-testid="confirm-method-hint">
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
    <dl className={cx(moneyStyles.facts, confirmStyles.confirmFacts)}>
      <div className={cx(confirmStyles.factsRow, storeStyles.factsRow, moneyStyles.factsRow)}>
        <dt>{t('orderConfirm.itemCount')}</dt>
        <dd className="mono">{quote.item_count}</dd>
      </div>
      <div className={cx(confirmStyles.factsRow, storeStyles.factsRow, moneyStyles.factsRow)}>
        <dt>{t('orderConfirm.total')}</dt>
        <dd className="mono" data-testid="confirm-total">
          {show(quote.total_usdt)} USDT
        </dd>
      </div>
      {facts.isPriced && quote.price !== null ? (
        <div className={cx(confirmStyles.factsRow, storeStyles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('orderConfirm.price')}</dt>
          <dd className={confirmStyles.confirmFactsPrice}>
            <span className="mono">{t('orderConfirm.priceValue', { price: formatMoney(quote.price, 6) })}</span>
            {quote.price_source ? (
              <span className={cx(moneyStyles.chip, quote.price_source === 'market' && moneyStyles.chipAccent)}>
                {t(`orderConfirm.priceSource.${quote.price_source}`)}
              </span>
            ) : null}
          </dd>
        </div>
      ) : null}
      <div className={cx(confirmStyles.factsRow, storeStyles.factsRow, moneyStyles.factsRow, confirmStyles.factsRowPay)}>
        <dt>{t('orderConfirm.toPay')}</dt>
        <dd className="mono" data-testid="confirm-pay-amount">
          {show(quote.pay_amount)} {quote.pay_asset}
        </dd>
      </div>
      {quote.available !== null ? (
        <div className={cx(confirmStyles.factsRow, storeStyles.factsRow, moneyStyles.factsRow)}>
          <dt>{t(method === 'credit' ? 'orderConfirm.availableCredit' : 'orderConfirm.availableBalance')}</dt>
          <dd className={cx('mono', facts.isShort && confirmStyles.confirmFactsShort)} data-testid="confirm-available">
            {show(quote.available)} {quote.pay_asset}
          </dd>
        </div>
      ) : null}
      <div className={cx(confirmStyles.factsRow, storeStyles.factsRow, moneyStyles.factsRow, confirmStyles.factsRowPower)}>
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
    <section className={confirmStyles.confirmSection}>
      <div className={confirmStyles.confirmRemarkHead}>
        <label htmlFor="confirm-remark" className={moneyStyles.fieldLabel}>
          {t('orderConfirm.remark')}
        </label>
        <span className={cx(confirmStyles.confirmRemarkCount, 'mono')}>
          {value.length}/{remarkMax}
        </span>
      </div>
      <textarea
        id="confirm-remark"
        className={cx(addressStyles.addressInput, addressStyles.addressInputArea)}
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
