import { useTranslation } from '../../../lib/translator.ts';
import type { TickerData } from '@nadi/api/market';
import type { SocketState } from '../../../lib/socket/socket-manager.ts';
import { formatMoney, formatPrice } from '../../../lib/money-format.ts';
import { cx, variant } from '../../../lib/cx.ts';
import styles from './trade.module.css';

/** docs/product.md section 4: the live connection's state, always visible (polling says the screen is still fresh). */
export function SocketBadge({ state }: { state: SocketState }) {
  const { t } = useTranslation();
  return (
    <span
      className={cx(styles.socketBadge, variant(styles, `socket-badge--${state}`))}
      data-testid="socket-state"
      data-state={state}
      title={state === 'connected' ? undefined : t('trade.socket.polling')}
    >
      <span className={styles.socketBadgeDot} aria-hidden="true" />
      {t(`trade.socket.${state}`)}
    </span>
  );
}

export function TickerHeader({ ticker, state }: { ticker: TickerData | undefined; state: SocketState }) {
  const { t } = useTranslation();
  const change = ticker?.price_change_percent ?? '0.00';
  const isDown = change.startsWith('-');
  const volume = (text: string | null | undefined) => (text ? formatMoney(text, 2) : '—');
  const price = (text: string | null | undefined) => (text ? formatPrice(text) : '—');
  return (
    <section className={cx(styles.ticker, 'card')} aria-label={t('trade.ticker.title')}>
      <div className={styles.tickerMain}>
        <div>
          <h1 className={styles.tickerPair}>NADI/USDT</h1>
          <p className={cx(styles.tickerLast, 'mono', isDown ? styles.isDown : styles.isUp)} data-testid="ticker-last">
            {price(ticker?.last_price)}
          </p>
          <p className={cx(styles.tickerChange, 'mono', isDown ? styles.isDown : styles.isUp)}>
            {isDown ? '' : '+'}
            {change}%
          </p>
        </div>
        <SocketBadge state={state} />
      </div>
      <dl className={styles.tickerStats}>
        <div>
          <dt>{t('trade.ticker.high')}</dt>
          <dd className="mono">{price(ticker?.high_price)}</dd>
        </div>
        <div>
          <dt>{t('trade.ticker.low')}</dt>
          <dd className="mono">{price(ticker?.low_price)}</dd>
        </div>
        <div>
          <dt>{t('trade.ticker.volume')}</dt>
          <dd className="mono">{volume(ticker?.volume)}</dd>
        </div>
        <div>
          <dt>{t('trade.ticker.quoteVolume')}</dt>
          <dd className="mono">{volume(ticker?.quote_volume)}</dd>
        </div>
      </dl>
    </section>
  );
}
