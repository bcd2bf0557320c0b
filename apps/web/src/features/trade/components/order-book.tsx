import { useTranslation } from 'react-i18next';
import { unitsOrZero } from '@nadi/money/money';
import type { BookLevel } from '../../../lib/socket/book-state.ts';
import { formatPrice, formatQuantity } from '../../../lib/money-format.ts';

export const bookLevelsShown = 7;

/** Depth bar width in whole percent of the largest level shown, computed in bigint. */
function barPercent(size: string, max: bigint): number {
  return max === 0n ? 0 : Number((unitsOrZero(size) * 100n) / max);
}

function Level({ level, side, max, onPick }: { level: BookLevel; side: 'ask' | 'bid'; max: bigint; onPick: (price: string) => void }) {
  const [price, size] = level;
  return (
    <li>
      <button type="button" className={`book__level book__level--${side}`} onClick={() => onPick(price)} data-testid={`book-${side}`}>
        <span className="book__bar" style={{ width: `${barPercent(size, max)}%` }} aria-hidden="true" />
        <span className="book__price mono">{formatPrice(price)}</span>
        <span className="book__size mono">{formatQuantity(size)}</span>
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
    <section className="book" aria-label={t('trade.book.title')} data-testid="order-book">
      <div className="book__head">
        <span>{t('trade.book.price')}</span>
        <span>{t('trade.book.amount')}</span>
      </div>
      <ul className="book__side book__side--asks">
        {shownAsks.length === 0 ? (
          <li className="book__empty">{t('trade.book.noAsks')}</li>
        ) : (
          shownAsks.map((level) => <Level key={level[0]} level={level} side="ask" max={max} onPick={onPick} />)
        )}
      </ul>
      <p className="book__last mono">{last ? formatPrice(last) : '—'}</p>
      <ul className="book__side">
        {shownBids.length === 0 ? (
          <li className="book__empty">{t('trade.book.noBids')}</li>
        ) : (
          shownBids.map((level) => <Level key={level[0]} level={level} side="bid" max={max} onPick={onPick} />)
        )}
      </ul>
    </section>
  );
}
