import { List } from '@refinedev/antd';

export function DashboardScreen() {
  return <List title="Dashboard">Coming next.</List>;
}
