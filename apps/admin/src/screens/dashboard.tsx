import { List } from '@refinedev/antd';
import { Alert } from 'antd';

// The charts (recharts) come with GET /api/v1/operator/dashboard, whose contract is being written.
export function DashboardScreen() {
  return (
    <List title="Dashboard">
      <Alert
        type="info"
        showIcon
        message="The dashboard's figures and charts arrive with the dashboard API. Use the menu for withdrawals, orders, products and parameters."
      />
    </List>
  );
}
