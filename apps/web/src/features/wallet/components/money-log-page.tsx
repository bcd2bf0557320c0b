import { MoneyLogList } from './money-log-list.tsx';
import moneyStyles from '../../../components/money.module.css';

/** /wallet/moneyLog: kept alive (docs/product.md section 2), so its filters and scroll position survive a visit elsewhere. */
export default function MoneyLogPage() {
  return (
    <div className={moneyStyles.moneyScreen}>
      <MoneyLogList />
    </div>
  );
}
