import { useTranslation } from '../../../lib/translator.ts';
import type { ExchangeQuoteData } from '@nadi/api/wallet';
import { formatMoney } from '../../../lib/money-format.ts';
import { quoteSecondsLeft, quoteShareLeft } from '../quote-countdown.ts';
import { amountDigitsShown } from '../../../lib/money-format.ts';
import { cx } from '../../../lib/cx.ts';
import styles from './wallet.module.css';

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
    <section className={cx(styles.quoteCard, 'card', isExpired && styles.quoteCardExpired)} aria-label={t('exchange.quoteTitle')}>
      <dl className={styles.quoteCardRows}>
        <div className={styles.quoteCardRow}>
          <dt>{t('exchange.price')}</dt>
          <dd className="mono">{t('exchange.priceValue', { price: formatMoney(quote.price, amountDigitsShown) })}</dd>
        </div>
        <div className={styles.quoteCardRow}>
          <dt>{t('exchange.fee')}</dt>
          <dd className="mono">
            {formatMoney(quote.fee, amountDigitsShown)} {quote.fee_asset}
          </dd>
        </div>
        <div className={cx(styles.quoteCardRow, styles.quoteCardRowReceive)}>
          <dt>{t('exchange.receive')}</dt>
          <dd className="mono" data-testid="exchange-receive">
            {formatMoney(quote.receive, amountDigitsShown)} {quote.to_asset}
          </dd>
        </div>
      </dl>
      {isExpired ? (
        <div className={styles.quoteCardExpired} role="alert">
          <p>{t('errors.QUOTE_EXPIRED')}</p>
          <button type="button" className="btn btn--small" data-testid="exchange-quote" onClick={onRequote} disabled={isRequoting}>
            {isRequoting ? t('exchange.quoting') : t('exchange.requote')}
          </button>
        </div>
      ) : (
        <div className={styles.quoteCardTimer}>
          <span className={styles.quoteCardBar} aria-hidden="true">
            <span style={{ transform: `scaleX(${quoteShareLeft(deadlineMs, nowMs)})` }} />
          </span>
          <p className={styles.quoteCardSeconds}>{t('exchange.validFor', { seconds: quoteSecondsLeft(deadlineMs, nowMs) })}</p>
        </div>
      )}
    </section>
  );
}
