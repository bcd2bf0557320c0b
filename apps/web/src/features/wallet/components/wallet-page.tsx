import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import Tabs from 'antd-mobile/es/components/tabs';
import { AccountsTab } from './accounts-tab.tsx';
import { AssetsGate } from './assets-gate.tsx';
import { AssetsTab } from './assets-tab.tsx';
import { IncomeList } from './income-list.tsx';
import { MoneyLogList } from './money-log-list.tsx';
import '../../../components/money.css';
import './wallet.css';

// Spec section 2 lists the wallet tabs as assets, team, account, income record and money record;
// the team tab comes with the team feature.
const tabs = ['assets', 'account', 'income', 'money'] as const;
type WalletTab = (typeof tabs)[number];

function parseTab(value: string | null): WalletTab {
  return tabs.find((tab) => tab === value) ?? 'assets';
}

/** /wallet: the tab lives in the URL (?tab=income), so going back returns to it. */
export default function WalletPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = parseTab(params.get('tab'));
  return (
    <div className="wallet-page">
      <Tabs className="wallet-tabs" activeKey={tab} onChange={(key) => setParams(key === 'assets' ? {} : { tab: key }, { replace: true })}>
        {tabs.map((key) => (
          <Tabs.Tab key={key} title={t(`walletPage.tab.${key}`)} />
        ))}
      </Tabs>
      <div className="money-screen" role="tabpanel" aria-label={t(`walletPage.tab.${tab}`)}>
        <TabContent tab={tab} />
      </div>
    </div>
  );
}

function TabContent({ tab }: { tab: WalletTab }) {
  if (tab === 'income') return <IncomeList />;
  if (tab === 'money') return <MoneyLogList />;
  return <BalancesTab tab={tab} />;
}

function BalancesTab({ tab }: { tab: 'assets' | 'account' }) {
  return <AssetsGate>{(data) => (tab === 'assets' ? <AssetsTab data={data} /> : <AccountsTab data={data} />)}</AssetsGate>;
}
