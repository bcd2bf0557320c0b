import { useTranslation } from 'react-i18next';
import type { ExchangeQuoteData } from '@nadi/api/wallet';
import { formatMoney } from '../../../lib/money-format.ts';
import { quoteSecondsLeft, quoteShareLeft } from '../quote-countdown.ts';
import { amountDigitsShown } from '../../../lib/money-format.ts';

interface Props {
  quote: ExchangeQuoteData;
  deadlineMs: number;
  nowMs: number;
  isExpired: boolean;
  isRequoting: boolean;
  onRequote: () => void;
}

/** A quote's price, fee and what the user receives, with the time left to confirm it. */
export function QuoteCard({ quote, deadlineMs, nowMs, isExpired, isRequoting, onRequote }: Props) {
  const { t } = useTranslation();
  return (
    <section className={`quote-card card${isExpired ? ' quote-card--expired' : ''}`} aria-label={t('exchange.quoteTitle')}>
      <dl className="quote-card__rows">
        <div className="quote-card__row">
          <dt>{t('exchange.price')}</dt>
          <dd className="mono">{t('exchange.priceValue', { price: formatMoney(quote.price, amountDigitsShown) })}</dd>
        </div>
        <div className="quote-card__row">
          <dt>{t('exchange.fee')}</dt>
          <dd className="mono">
            {formatMoney(quote.fee, amountDigitsShown)} {quote.fee_asset}
          </dd>
        </div>
        <div className="quote-card__row quote-card__row--receive">
          <dt>{t('exchange.receive')}</dt>
          <dd className="mono" data-testid="exchange-receive">
            {formatMoney(quote.receive, amountDigitsShown)} {quote.to_asset}
          </dd>
        </div>
      </dl>
      {isExpired ? (
        <div className="quote-card__expired" role="alert">
          <p>{t('errors.QUOTE_EXPIRED')}</p>
          <button type="button" className="btn btn--small" data-testid="exchange-quote" onClick={onRequote} disabled={isRequoting}>
            {isRequoting ? t('exchange.quoting') : t('exchange.requote')}
          </button>
        </div>
      ) : (
        <div className="quote-card__timer">
          <span className="quote-card__bar" aria-hidden="true">
            <span style={{ transform: `scaleX(${quoteShareLeft(deadlineMs, nowMs)})` }} />
          </span>
          <p className="quote-card__seconds">{t('exchange.validFor', { seconds: quoteSecondsLeft(deadlineMs, nowMs) })}</p>
        </div>
      )}
    </section>
  );
}
