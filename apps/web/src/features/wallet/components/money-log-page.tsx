import { MoneyLogList } from './money-log-list.tsx';
import '../../../components/money.css';
import './wallet.css';

/** /wallet/moneyLog: kept alive (docs/product.md section 2), so its filters and scroll position survive a visit elsewhere. */
export default function MoneyLogPage() {
  return (
    <div className="money-screen">
      <MoneyLogList />
    </div>
  );
}
