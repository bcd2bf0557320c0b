import { List } from '@refinedev/antd';

export function OrdersScreen() {
  return <List title="Store orders">Coming next.</List>;
}
