import { lazy, Suspense, useEffect, useRef, type ComponentType, type KeyboardEvent, type LazyExoticComponent } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { useSearchParams } from 'react-router';
import { LoadingView } from '../../../components/state-view.tsx';
import { withTexts } from '../../../lib/i18n.ts';
import { walletTabs } from '../../../lib/wallet-actions.ts';
import { AccountsTab } from './accounts-tab.tsx';
import { AssetsGate } from './assets-gate.tsx';
import { AssetsTab } from './assets-tab.tsx';
import { IncomeList } from './income-list.tsx';
import { MoneyLogList } from './money-log-list.tsx';
import moneyStyles from '../../../components/money.module.css';
import { cx } from '../../../lib/cx.ts';
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
    ...walletTabs().map((tab) => ({
      id: tab.id,
      labelKey: tab.labelKey,
      order: tab.order,
      Screen: lazy(() => withTexts(tab.load, tab.texts)),
    })),
  ].sort((a, b) => a.order - b.order);
  return entries;
}

function parseTab(value: string | null): TabEntry {
  const all = tabEntries();
  return all.find((tab) => tab.id === value) ?? all[0]!;
}

/** /wallet: the tab lives in the URL (?tab=income), so going back returns to it. */
export default function WalletPage() {
  const [params, setParams] = useSearchParams();
  const tab = parseTab(params.get('tab'));
  return (
    <div className="wallet-page">
      <TabBar activeId={tab.id} onChange={(id) => setParams(id === 'assets' ? {} : { tab: id }, { replace: true })} />
      <div className={moneyStyles.moneyScreen} role="tabpanel" id="wallet-tabpanel" aria-labelledby={`wallet-tab-${tab.id}`}>
        <TabContent tab={tab} />
      </div>
    </div>
  );
}

/**
 * The tab bar: a tablist (arrow keys, Home and End move between tabs, as WAI-ARIA's tabs pattern
 * asks), sticky under the top bar. The screen's own rather than antd-mobile's Tabs, whose gesture
 * and animation libraries (~20 KB) were downloaded before the wallet's first figure (issue 33).
 */
function TabBar({ activeId, onChange }: { activeId: string; onChange: (id: string) => void }) {
  const { t } = useTranslation();
  const all = tabEntries();
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  // A language whose labels do not fit scrolls the bar sideways: the tab shown (a link to ?tab=money
  // too) is scrolled into view.
  useEffect(() => {
    buttons.current.get(activeId)?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [activeId]);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = all.findIndex((entry) => entry.id === activeId);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: all.length - 1 };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = all[(to + all.length) % all.length]!;
    onChange(next.id);
    buttons.current.get(next.id)?.focus();
  };
  return (
    <div className={styles.walletTabs} role="tablist" aria-label={t('nav.wallet')} onKeyDown={onKeyDown}>
      {all.map((entry) => {
        const isActive = entry.id === activeId;
        return (
          <button
            key={entry.id}
            ref={(button) => {
              if (button) buttons.current.set(entry.id, button);
              else buttons.current.delete(entry.id);
            }}
            type="button"
            role="tab"
            id={`wallet-tab-${entry.id}`}
            aria-selected={isActive}
            aria-controls="wallet-tabpanel"
            tabIndex={isActive ? 0 : -1}
            className={cx(styles.walletTabButton, isActive && styles.walletTabButtonActive)}
            onClick={() => onChange(entry.id)}
          >
            {t(entry.labelKey)}
          </button>
        );
      })}
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
