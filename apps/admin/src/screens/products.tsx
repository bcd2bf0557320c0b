import { List } from '@refinedev/antd';

export function ProductsScreen() {
  return <List title="Products">Coming next.</List>;
}
