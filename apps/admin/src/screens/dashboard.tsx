import { operatorUserRoutes } from '@nadi/api/operator-users';
import { List } from '@refinedev/antd';
import { Alert, Button, Card, Col, Empty, Row, Spin, Statistic, Table, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { callRoute } from '../lib/api.ts';
import { Amount, DateTime } from './format.tsx';

/**
 * A chart's height for an amount. Amounts stay exact decimal strings everywhere else; a chart only
 * draws, so the bar's length is the one place a decimal becomes a float (never summed or stored).
 */
function plotted(amount: string | undefined): number {
  return amount === undefined ? 0 : Number.parseFloat(amount);
}

/** GET /api/v1/operator/dashboard: the platform at a glance, with its charts. */
export function DashboardScreen() {
  // Refine's own query client (its <Refine> provides it) holds the answer like every list's.
  const load = useQuery({ queryKey: ['operator', 'dashboard', 14], queryFn: () => callRoute(operatorUserRoutes.dashboard, { days: 14 }) });
  const refresh = () => void load.refetch();

  if (load.isPending)
    return (
      <List title="Dashboard">
        <Spin />
      </List>
    );
  if (load.isError)
    return (
      <List title="Dashboard">
        <Alert
          type="error"
          showIcon
          message="The dashboard could not be loaded"
          description={load.error instanceof Error ? load.error.message : String(load.error)}
          action={<Button onClick={refresh}>Retry</Button>}
        />
      </List>
    );
  const d = load.data;
  const days = d.days.map((day) => ({
    day: day.day.slice(5),
    users: day.new_users,
    deposits: plotted(day.deposits.NADI),
    withdrawals: plotted(day.withdrawals.NADI),
    fees: plotted(day.fees.NADI) + plotted(day.fees.USDT),
  }));
  const epochs = [...d.epochs].reverse().map((e) => ({ epoch: e.epoch, paid: plotted(e.paid), power: plotted(e.network_power) }));
  return (
    <List title="Dashboard" headerButtons={<Button onClick={refresh}>Refresh</Button>}>
      <Row gutter={[16, 16]}>
        <Col span={6}>
          <Card>
            <Statistic title="Withdrawals to review" value={d.pending_withdrawals} />
          </Card>
        </Col>
        <Col span={6}>
          <Card>
            <Statistic title="Orders to ship" value={d.orders_to_ship} />
          </Card>
        </Col>
        <Col span={6}>
          <Card>
            <Statistic
              title="Last settlement"
              value={d.last_settlement ? `epoch ${d.last_settlement.epoch}` : 'none yet'}
              suffix={d.last_settlement?.duration_ms != null ? <small>{d.last_settlement.duration_ms} ms</small> : null}
            />
            {d.last_settlement ? <DateTime value={d.last_settlement.settled_at} /> : null}
          </Card>
        </Col>
        <Col span={6}>
          <Card>
            <Statistic title="Ledger check" value={d.ledger_check.is_ok ? 'every asset sums to zero' : 'out of balance'} />
            {d.ledger_check.is_ok ? <Tag color="green">ok</Tag> : <Tag color="red">check the ledger audit</Tag>}
          </Card>
        </Col>
        <Col span={12}>
          <Card title="New users per day">
            <ResponsiveContainer width="100%" height={220}>
              <BarChart data={days}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="day" />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Bar dataKey="users" name="new users" fill="#1677ff" />
              </BarChart>
            </ResponsiveContainer>
          </Card>
        </Col>
        <Col span={12}>
          <Card title="NADI deposits, withdrawals and fees per day">
            <ResponsiveContainer width="100%" height={220}>
              <LineChart data={days}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="day" />
                <YAxis />
                <Tooltip />
                <Legend />
                <Line type="monotone" dataKey="deposits" stroke="#52c41a" />
                <Line type="monotone" dataKey="withdrawals" stroke="#fa541c" />
                <Line type="monotone" dataKey="fees" stroke="#722ed1" />
              </LineChart>
            </ResponsiveContainer>
          </Card>
        </Col>
        <Col span={12}>
          <Card title="Emission paid and network power per epoch">
            {epochs.length === 0 ? (
              <Empty description="No epoch settled yet" />
            ) : (
              <ResponsiveContainer width="100%" height={220}>
                <LineChart data={epochs}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="epoch" />
                  <YAxis yAxisId="paid" />
                  <YAxis yAxisId="power" orientation="right" />
                  <Tooltip />
                  <Legend />
                  <Line yAxisId="paid" type="monotone" dataKey="paid" name="NADI paid" stroke="#1677ff" />
                  <Line yAxisId="power" type="monotone" dataKey="power" name="network power (P)" stroke="#faad14" />
                </LineChart>
              </ResponsiveContainer>
            )}
          </Card>
        </Col>
        <Col span={12}>
          <Card title="Node sales per tier">
            <ResponsiveContainer width="100%" height={220}>
              <BarChart data={d.node_sales}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="name" />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Bar dataKey="sold" name="sold" fill="#13c2c2" />
              </BarChart>
            </ResponsiveContainer>
          </Card>
        </Col>
        <Col span={24}>
          <Card title="Pools and their runway">
            <Table
              size="small"
              pagination={false}
              rowKey={(p) => `${p.kind}:${p.asset}`}
              dataSource={d.pools}
              columns={[
                { title: 'Pool', dataIndex: 'kind' },
                { title: 'Balance', align: 'right', render: (_, p) => <Amount value={p.balance} unit={p.asset} /> },
                { title: 'Outflow per day (7-day average)', align: 'right', render: (_, p) => <Amount value={p.daily_outflow} unit={p.asset} /> },
                {
                  title: 'Runway',
                  align: 'right',
                  render: (_, p) => (p.runway_days === null ? 'no outflow' : `${Math.floor(p.runway_days).toLocaleString('en-US')} days`),
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </List>
  );
}
