import { List } from '@refinedev/antd';

export function EconomyParamsScreen() {
  return <List title="Economy params">Coming next.</List>;
}
