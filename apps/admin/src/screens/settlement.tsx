import { poolKindsTopped, type PoolRow, type SettlementEpoch } from '@nadi/api/operator-users';
import { List, useTable } from '@refinedev/antd';
import { Alert, Button, Card, Form, Input, Popconfirm, Space, Table } from 'antd';
import { useState } from 'react';
import { amountRule } from '../lib/decimal.ts';
import { useAction } from '../lib/use-action.ts';
import { actions } from '../providers/data-provider.ts';
import { Amount, DateTime } from './format.tsx';
import { ReasonModal } from './reason-modal.tsx';

interface SettledRun {
  settled: { epoch: number; paid: string }[];
}

function isTopped(kind: string): boolean {
  return (poolKindsTopped as readonly string[]).includes(kind);
}

export function SettlementScreen() {
  const { tableProps: poolTable } = useTable<PoolRow & { id: string }>({
    resource: 'pools',
    syncWithLocation: false,
    pagination: { mode: 'off' },
    filters: { mode: 'off' },
    sorters: { mode: 'off' },
  });
  const { tableProps: epochTable } = useTable<SettlementEpoch>({ resource: 'settlement-epochs', syncWithLocation: false, pagination: { pageSize: 10 } });
  const topup = useAction(actions.poolTopup, 'pools', 'Pool topped up');
  const run = useAction(actions.runSettlement, 'settlement-epochs', 'Settlement run finished');
  const [topping, setTopping] = useState<PoolRow | null>(null);
  const [lastRun, setLastRun] = useState<SettledRun | null>(null);
  const [amountForm] = Form.useForm<{ amount: string }>();

  return (
    <List
      title="Pools & settlement"
      headerButtons={
        run.allowed ? (
          <Popconfirm
            title="Settle every ended epoch not settled yet?"
            description="The same run the settlement job makes; an epoch settles once, so a second run settles nothing."
            okText="Run settlement"
            onConfirm={() =>
              run
                .run({})
                .then((data) => setLastRun(data as SettledRun))
                .catch(() => undefined)
            }
          >
            <Button type="primary" loading={run.isPending}>
              Run settlement
            </Button>
          </Popconfirm>
        ) : null
      }
    >
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        {lastRun ? (
          <Alert
            type={lastRun.settled.length > 0 ? 'success' : 'info'}
            showIcon
            closable
            onClose={() => setLastRun(null)}
            message={
              lastRun.settled.length > 0
                ? `Settled ${lastRun.settled.length} epoch${lastRun.settled.length === 1 ? '' : 's'}: ${lastRun.settled.map((e) => `#${e.epoch} (paid ${e.paid} NADI)`).join(', ')}`
                : 'Nothing to settle: every ended epoch is settled already.'
            }
          />
        ) : null}
        <Card title="Reward pools" size="small">
          <Table {...poolTable} rowKey="id" size="small" pagination={false}>
            <Table.Column dataIndex="kind" title="Pool" render={(v: string) => v.replaceAll('_', ' ')} />
            <Table.Column dataIndex="asset" title="Asset" />
            <Table.Column dataIndex="balance" title="Balance" align="right" render={(v: string) => <Amount value={v} />} />
            <Table.Column
              key="actions"
              title="Actions"
              render={(_, r: PoolRow) =>
                topup.allowed && isTopped(r.kind) ? (
                  <Button size="small" onClick={() => setTopping(r)}>
                    Top up…
                  </Button>
                ) : null
              }
            />
          </Table>
        </Card>
        <Card title="Settled epochs" size="small">
          <Table {...epochTable} rowKey="epoch" size="small">
            <Table.Column dataIndex="epoch" title="Epoch" />
            <Table.Column
              dataIndex="starts_at"
              title="Period"
              render={(v: string, r: SettlementEpoch) => (
                <Space direction="vertical" size={0}>
                  <DateTime value={v} />
                  <DateTime value={r.ends_at} />
                </Space>
              )}
            />
            <Table.Column
              dataIndex="settled_at"
              title="Settled"
              render={(v: string, r: SettlementEpoch) => (
                <Space direction="vertical" size={0}>
                  <DateTime value={v} />
                  {r.duration_ms === null ? null : <small>{`${r.duration_ms} ms`}</small>}
                </Space>
              )}
            />
            <Table.Column dataIndex="network_power" title="Network power" align="right" render={(v: string) => <Amount value={v} />} />
            <Table.Column dataIndex="mining_paid" title="Mining (NADI)" align="right" render={(v: string) => <Amount value={v} />} />
            <Table.Column dataIndex="savings_paid" title="Savings (NADI)" align="right" render={(v: string) => <Amount value={v} />} />
            <Table.Column
              dataIndex="node_paid"
              title="Nodes"
              align="right"
              render={(v: string, r: SettlementEpoch) => (
                <Space direction="vertical" size={0} style={{ alignItems: 'flex-end' }}>
                  <Amount value={v} unit="NADI" />
                  <Amount value={r.node_paid_usdt} unit="USDT" />
                </Space>
              )}
            />
            <Table.Column dataIndex="team_paid" title="Team (NADI)" align="right" render={(v: string) => <Amount value={v} />} />
          </Table>
        </Card>
      </Space>
      <ReasonModal
        open={topping !== null}
        title={`Top up ${topping?.kind.replaceAll('_', ' ') ?? ''} from the treasury`}
        okText="Top up"
        danger={false}
        label="Reason (kept in the audit trail)"
        pending={topup.isPending}
        onCancel={() => setTopping(null)}
        onSubmit={async (reason) => {
          const { amount } = await amountForm.validateFields();
          if (!topping) return;
          await topup.run({ pool: topping.kind, asset: topping.asset, amount: amount.trim(), reason });
          amountForm.resetFields();
          setTopping(null);
        }}
      >
        <p>{`Balance now: ${topping?.balance ?? ''} ${topping?.asset ?? ''}`}</p>
        <Form form={amountForm} layout="vertical">
          <Form.Item name="amount" label={`Amount (${topping?.asset ?? 'NADI'})`} rules={[{ required: true, message: 'Required' }, amountRule()]}>
            <Input inputMode="decimal" />
          </Form.Item>
        </Form>
      </ReasonModal>
    </List>
  );
}
