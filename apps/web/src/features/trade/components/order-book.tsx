import { useTranslation } from '../../../lib/translator.ts';
import { unitsOrZero } from '@nadi/money/money';
import type { BookLevel } from '../../../lib/socket/book-state.ts';
import { formatPrice, formatQuantity } from '../../../lib/money-format.ts';
import { cx, variant } from '../../../lib/cx.ts';
import styles from './trade.module.css';

export const bookLevelsShown = 7;

/** Depth bar width in whole percent of the largest level shown, computed in bigint. */
function barPercent(size: string, max: bigint): number {
  return max === 0n ? 0 : Number((unitsOrZero(size) * 100n) / max);
}

function Level({ level, side, max, onPick }: { level: BookLevel; side: 'ask' | 'bid'; max: bigint; onPick: (price: string) => void }) {
  const [price, size] = level;
  return (
    <li>
      <button
        type="button"
        className={cx(styles.bookLevel, variant(styles, `book__level--${side}`))}
        onClick={() => onPick(price)}
        data-testid={`book-${side}`}
      >
        <span className={styles.bookBar} style={{ width: `${barPercent(size, max)}%` }} aria-hidden="true" />
        <span className={cx(styles.bookPrice, 'mono')} data-testid="book-price">
          {formatPrice(price)}
        </span>
        <span className={cx(styles.bookSize, 'mono')} data-testid="book-size">
          {formatQuantity(size)}
        </span>
      </button>
    </li>
  );
}

/** Asks above (best nearest the middle), the last price, bids below; tapping a level fills the form's price. */
export function OrderBook({ asks, bids, last, onPick }: { asks: BookLevel[]; bids: BookLevel[]; last: string | null; onPick: (price: string) => void }) {
  const { t } = useTranslation();
  const shownAsks = asks.slice(0, bookLevelsShown).reverse();
  const shownBids = bids.slice(0, bookLevelsShown);
  const max = [...shownAsks, ...shownBids].reduce((acc, [, size]) => (unitsOrZero(size) > acc ? unitsOrZero(size) : acc), 0n);
  return (
    <section className={styles.book} aria-label={t('trade.book.title')} data-testid="order-book">
      <div className={styles.bookHead}>
        <span>{t('trade.book.price')}</span>
        <span>{t('trade.book.amount')}</span>
      </div>
      <ul className={cx(styles.bookSide, styles.bookSideAsks)}>
        {shownAsks.length === 0 ? (
          <li className={styles.bookEmpty}>{t('trade.book.noAsks')}</li>
        ) : (
          shownAsks.map((level) => <Level key={level[0]} level={level} side="ask" max={max} onPick={onPick} />)
        )}
      </ul>
      <p className={cx(styles.bookLast, 'mono')}>{last ? formatPrice(last) : '—'}</p>
      <ul className={styles.bookSide}>
        {shownBids.length === 0 ? (
          <li className={styles.bookEmpty}>{t('trade.book.noBids')}</li>
        ) : (
          shownBids.map((level) => <Level key={level[0]} level={level} side="bid" max={max} onPick={onPick} />)
        )}
      </ul>
    </section>
  );
}
