import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import Tabs from 'antd-mobile/es/components/tabs';
import { LoadingView } from '../../../components/state-view.tsx';
import { walletTabs } from '../../../lib/wallet-actions.ts';
import { AccountsTab } from './accounts-tab.tsx';
import { AssetsGate } from './assets-gate.tsx';
import { AssetsTab } from './assets-tab.tsx';
import { IncomeList } from './income-list.tsx';
import { MoneyLogList } from './money-log-list.tsx';
import moneyStyles from '../../../components/money.module.css';
import styles from './wallet.module.css';

// docs/product.md section 2 lists the wallet tabs as assets, team, account, income record and money record;
// the team tab belongs to the team feature, which registers it (lib/wallet-actions.ts).
const ownTabs = [
  { id: 'assets', order: 0 },
  { id: 'account', order: 20 },
  { id: 'income', order: 30 },
  { id: 'money', order: 40 },
] as const;
type OwnTab = (typeof ownTabs)[number]['id'];

interface TabEntry {
  id: string;
  labelKey: string;
  order: number;
  /** Another feature's tab, loaded when first opened. */
  Screen?: LazyExoticComponent<ComponentType>;
}

let entries: TabEntry[] | null = null;
/** The wallet's own tabs and the registered ones, in order (built once: lazy screens must be stable). */
function tabEntries(): TabEntry[] {
  entries ??= [
    ...ownTabs.map((tab) => ({ id: tab.id, labelKey: `walletPage.tab.${tab.id}`, order: tab.order })),
    ...walletTabs().map((tab) => ({ id: tab.id, labelKey: tab.labelKey, order: tab.order, Screen: lazy(tab.load) })),
  ].sort((a, b) => a.order - b.order);
  return entries;
}

function parseTab(value: string | null): TabEntry {
  const all = tabEntries();
  return all.find((tab) => tab.id === value) ?? all[0]!;
}

/** /wallet: the tab lives in the URL (?tab=income), so going back returns to it. */
export default function WalletPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = parseTab(params.get('tab'));
  return (
    <div className="wallet-page">
      <Tabs className={styles.walletTabs} activeKey={tab.id} onChange={(key) => setParams(key === 'assets' ? {} : { tab: key }, { replace: true })}>
        {tabEntries().map((entry) => (
          <Tabs.Tab key={entry.id} title={t(entry.labelKey)} />
        ))}
      </Tabs>
      <div className={moneyStyles.moneyScreen} role="tabpanel" aria-label={t(tab.labelKey)}>
        <TabContent tab={tab} />
      </div>
    </div>
  );
}

function TabContent({ tab }: { tab: TabEntry }) {
  if (tab.Screen) {
    const Screen = tab.Screen;
    return (
      <Suspense fallback={<LoadingView />}>
        <Screen />
      </Suspense>
    );
  }
  const id = tab.id as OwnTab;
  if (id === 'income') return <IncomeList />;
  if (id === 'money') return <MoneyLogList />;
  return <BalancesTab tab={id} />;
}

function BalancesTab({ tab }: { tab: 'assets' | 'account' }) {
  return <AssetsGate>{(data) => (tab === 'assets' ? <AssetsTab data={data} /> : <AccountsTab data={data} />)}</AssetsGate>;
}
