import { ErrorComponent, ThemedLayout, ThemedSider, ThemedTitle, useNotificationProvider } from '@refinedev/antd';
import '@refinedev/antd/dist/reset.css';
import { Authenticated, Refine } from '@refinedev/core';
import routerProvider, { CatchAllNavigate, DocumentTitleHandler } from '@refinedev/react-router';
import { App as AntdApp, ConfigProvider } from 'antd';
import { BrowserRouter, Outlet, Route, Routes } from 'react-router';
import { createAuthProvider } from './providers/auth-provider.ts';
import { createDataProvider } from './providers/data-provider.ts';
import { ActivationBatchesScreen } from './screens/activation-batches.tsx';
import { ApprovalsScreen } from './screens/approvals.tsx';
import { AuditLogScreen } from './screens/audit-log.tsx';
import { DashboardScreen } from './screens/dashboard.tsx';
import { DeviceModelsScreen } from './screens/device-models.tsx';
import { DevicesScreen } from './screens/devices.tsx';
import { EconomyParamsScreen } from './screens/economy-params.tsx';
import { LoginScreen } from './screens/login.tsx';
import { NodeTiersScreen } from './screens/node-tiers.tsx';
import { SavingsProductsScreen } from './screens/savings-products.tsx';
import { SettlementScreen } from './screens/settlement.tsx';
import { NoAccessScreen } from './screens/no-access.tsx';
import { NoticesScreen } from './screens/notices.tsx';
import { OrdersScreen } from './screens/orders.tsx';
import { ProductsScreen } from './screens/products.tsx';
import { RolesScreen } from './screens/roles.tsx';
import { UserDetailScreen } from './screens/user-detail.tsx';
import { UsersScreen } from './screens/users.tsx';
import { WithdrawalsScreen } from './screens/withdrawals.tsx';

const dataProvider = createDataProvider();
const authProvider = createAuthProvider();

const resources = [
  { name: 'dashboard', list: '/', meta: { label: 'Dashboard' } },
  { name: 'withdrawals', list: '/withdrawals', meta: { label: 'Withdrawals' } },
  { name: 'orders', list: '/orders', meta: { label: 'Store orders' } },
  { name: 'products', list: '/products', meta: { label: 'Products' } },
  { name: 'economy-params', list: '/economy', meta: { label: 'Economy params' } },
  { name: 'approvals', list: '/approvals', meta: { label: 'Approvals' } },
  { name: 'audit', list: '/audit', meta: { label: 'Audit log' } },
  // Users and roles.
  { name: 'users', list: '/users', show: '/users/:id', meta: { label: 'Users' } },
  { name: 'roles', list: '/roles', meta: { label: 'Roles' } },
  { name: 'device-area', meta: { label: 'Devices' } },
  { name: 'devices', list: '/devices', meta: { label: 'Device list', parent: 'device-area' } },
  { name: 'device-models', list: '/devices/models', meta: { label: 'Models', parent: 'device-area' } },
  { name: 'activation-batches', list: '/devices/batches', meta: { label: 'Activation codes', parent: 'device-area' } },
  { name: 'notices', list: '/notices', meta: { label: 'Notices' } },
  // Economy: node tiers, savings products, pools and settlement.
  { name: 'node-tiers', list: '/economy/tiers', meta: { label: 'Node tiers' } },
  { name: 'savings-products', list: '/economy/savings', meta: { label: 'Savings products' } },
  { name: 'settlement', list: '/settlement', meta: { label: 'Pools & settlement' } },
];

const title = ({ collapsed }: { collapsed: boolean }) => <ThemedTitle collapsed={collapsed} text="NADI console" />;

export function App() {
  return (
    <BrowserRouter basename="/admin">
      <ConfigProvider theme={{ token: { colorPrimary: '#3a5bd9' } }}>
        <AntdApp>
          <Refine
            dataProvider={dataProvider}
            authProvider={authProvider}
            routerProvider={routerProvider}
            notificationProvider={useNotificationProvider}
            resources={resources}
            options={{ syncWithLocation: true, disableTelemetry: true, title: { text: 'NADI console' } }}
          >
            <Routes>
              <Route
                element={
                  <Authenticated key="console" fallback={<CatchAllNavigate to="/login" />}>
                    <ThemedLayout Title={title} Sider={() => <ThemedSider Title={title} render={({ items, logout }) => [items, logout]} />}>
                      <Outlet />
                    </ThemedLayout>
                  </Authenticated>
                }
              >
                <Route index element={<DashboardScreen />} />
                <Route path="/withdrawals" element={<WithdrawalsScreen />} />
                <Route path="/orders" element={<OrdersScreen />} />
                <Route path="/products" element={<ProductsScreen />} />
                <Route path="/economy" element={<EconomyParamsScreen />} />
                <Route path="/approvals" element={<ApprovalsScreen />} />
                <Route path="/audit" element={<AuditLogScreen />} />
                {/* Users and roles. */}
                <Route path="/users" element={<UsersScreen />} />
                <Route path="/users/:id" element={<UserDetailScreen />} />
                <Route path="/roles" element={<RolesScreen />} />
                <Route path="/devices" element={<DevicesScreen />} />
                <Route path="/devices/models" element={<DeviceModelsScreen />} />
                <Route path="/devices/batches" element={<ActivationBatchesScreen />} />
                <Route path="/notices" element={<NoticesScreen />} />
                <Route path="/economy/tiers" element={<NodeTiersScreen />} />
                <Route path="/economy/savings" element={<SavingsProductsScreen />} />
                <Route path="/settlement" element={<SettlementScreen />} />
                <Route path="*" element={<ErrorComponent />} />
              </Route>
              <Route path="/login" element={<LoginScreen />} />
              <Route path="/no-access" element={<NoAccessScreen />} />
            </Routes>
            <DocumentTitleHandler handler={() => 'NADI console'} />
          </Refine>
        </AntdApp>
      </ConfigProvider>
    </BrowserRouter>
  );
}
