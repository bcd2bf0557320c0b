import { operatorUserRoutes, type OperatorUserDetail } from '@nadi/api/operator-users';
import { Show } from '@refinedev/antd';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Empty, Popconfirm, Result, Space, Spin, Statistic, Table, Tabs, Tag, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, callRoute } from '../lib/api.ts';
import { useAction } from '../lib/use-action.ts';
import { actions } from '../providers/data-provider.ts';
import { Address, Amount, DateTime, Status } from './format.tsx';
import { ReasonModal } from './reason-modal.tsx';
import { minerStatusLabel, userIdOf, userTabs, type LedgerRow, type UserTabKey } from './user-rows.ts';
import { roleColors } from './users.tsx';

type Detail = OperatorUserDetail;

/** A user's id as a link to their own detail. */
function UserLink({ id, address }: { id: number; address: string }) {
  return (
    <Space>
      <Link to={`/users/${id}`}>#{id}</Link>
      <Address value={address} />
    </Space>
  );
}

/**
 * One user (GET /api/v1/operator/user?id=): profile and freeze state, balances per account, and
 * tabs of ledger lines, store orders, miners, nodes, savings, team and live sessions. Operators
 * freeze and unfreeze with a reason and revoke sessions.
 */
export function UserDetailScreen() {
  const param = useParams().id;
  const id = userIdOf(param);
  const load = useQuery({
    queryKey: ['operator', 'user', id],
    queryFn: () => callRoute(operatorUserRoutes.user, { id }),
    enabled: id !== null,
    retry: (count, error) => !(error instanceof ApiError && error.status > 0 && error.status < 500) && count < 2,
  });
  const refresh = () => void load.refetch();
  const title = id === null ? 'User' : `User #${id}`;
  const shell = (body: ReactNode) => (
    <Show title={title} resource="users" headerButtons={<Button onClick={refresh}>Refresh</Button>}>
      {body}
    </Show>
  );

  const isNotFound = id === null || (load.error instanceof ApiError && load.error.reason === 'NOT_FOUND');
  if (isNotFound)
    return shell(<Result status="404" title="No such user" subTitle={`There is no user ${param ?? ''}.`} extra={<Link to="/users">Back to users</Link>} />);
  if (load.isPending) return shell(<Spin />);
  if (load.isError)
    return shell(
      <Alert
        type="error"
        showIcon
        message="The user could not be loaded"
        description={load.error instanceof Error ? load.error.message : String(load.error)}
        action={<Button onClick={refresh}>Retry</Button>}
      />,
    );
  return <UserDetailView detail={load.data} onChanged={refresh} title={title} />;
}

function UserDetailView({ detail, onChanged, title }: { detail: Detail; onChanged: () => void; title: string }) {
  const freeze = useAction(actions.freeze, 'users', 'Account frozen');
  const unfreeze = useAction(actions.unfreeze, 'users', 'Account unfrozen');
  const [dialog, setDialog] = useState<'freeze' | 'unfreeze' | null>(null);
  const u = detail.user;
  const isFrozen = u.frozen_at !== null;
  const action = dialog === 'unfreeze' ? unfreeze : freeze;

  return (
    <Show
      title={title}
      resource="users"
      headerButtons={
        <Space>
          <Button onClick={onChanged}>Refresh</Button>
          {!isFrozen && freeze.allowed ? (
            <Button danger onClick={() => setDialog('freeze')}>
              Freeze
            </Button>
          ) : null}
          {isFrozen && unfreeze.allowed ? <Button onClick={() => setDialog('unfreeze')}>Unfreeze</Button> : null}
        </Space>
      }
    >
      {isFrozen ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          message={
            <span>
              Frozen since <DateTime value={u.frozen_at} />: the account signs in and reads but moves no money
            </span>
          }
          description={`Reason: ${u.frozen_reason ?? '—'}`}
        />
      ) : null}
      <Descriptions bordered size="small" column={3} style={{ marginBottom: 16 }}>
        <Descriptions.Item label="Address" span={2}>
          <Typography.Text copyable style={{ fontFamily: 'monospace' }}>
            {u.address}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="State">{isFrozen ? <Tag color="red">frozen</Tag> : <Tag color="green">active</Tag>}</Descriptions.Item>
        <Descriptions.Item label="Name">{u.name || '—'}</Descriptions.Item>
        <Descriptions.Item label="Invite code">
          <code>{u.invite_code}</code>
        </Descriptions.Item>
        <Descriptions.Item label="Level">{u.level}</Descriptions.Item>
        <Descriptions.Item label="Referrer">{u.referrer_id === null ? '—' : <Link to={`/users/${u.referrer_id}`}>#{u.referrer_id}</Link>}</Descriptions.Item>
        <Descriptions.Item label="Registered">
          <DateTime value={u.created_at} />
        </Descriptions.Item>
        <Descriptions.Item label="Console role">{u.role ? <Tag color={roleColors[u.role]}>{u.role}</Tag> : '—'}</Descriptions.Item>
      </Descriptions>
      <Card size="small" title="Balances" style={{ marginBottom: 16 }}>
        <Table dataSource={detail.balances} rowKey={(b) => `${b.kind}:${b.asset}`} size="small" pagination={false} locale={{ emptyText: 'No accounts yet' }}>
          <Table.Column dataIndex="kind" title="Account" />
          <Table.Column dataIndex="asset" title="Asset" />
          <Table.Column dataIndex="available" title="Available" align="right" render={(v: string) => <Amount value={v} />} />
          <Table.Column dataIndex="frozen" title="Frozen (held)" align="right" render={(v: string) => <Amount value={v} />} />
        </Table>
      </Card>
      <UserTabsCard detail={detail} onChanged={onChanged} />
      <ReasonModal
        open={dialog !== null}
        title={dialog === 'unfreeze' ? `Unfreeze user #${u.id}` : `Freeze user #${u.id}`}
        okText={dialog === 'unfreeze' ? 'Unfreeze' : 'Freeze'}
        danger={dialog !== 'unfreeze'}
        label="Reason (kept in the audit trail)"
        pending={action.isPending}
        onCancel={() => setDialog(null)}
        onSubmit={async (reason) => {
          await action.run({ user_id: u.id, reason });
          setDialog(null);
          onChanged();
        }}
      >
        <p>
          {dialog === 'unfreeze'
            ? 'The account may move money again.'
            : 'The account still signs in and reads, and credits still arrive, but it cannot spend, withdraw, transfer or order.'}
        </p>
      </ReasonModal>
    </Show>
  );
}

function UserTabsCard({ detail, onChanged }: { detail: Detail; onChanged: () => void }) {
  const tabs = userTabs(detail);
  const revokeOne = useAction(actions.revokeSession, 'users', 'Session revoked');
  const revokeAll = useAction(actions.revokeUserSessions, 'users', 'Every session revoked');
  const [active, setActive] = useState<UserTabKey>('ledger');
  const empty = (text: string) => ({ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} /> });
  const page = { pageSize: 10, hideOnSinglePage: true } as const;

  const bodies: Record<UserTabKey, ReactNode> = {
    ledger: (
      <Table dataSource={tabs.ledger} rowKey="key" size="small" pagination={page} locale={empty('No ledger lines')}>
        <Table.Column dataIndex="flow_id" title="Flow" />
        <Table.Column dataIndex="type" title="Type" />
        <Table.Column dataIndex="kind" title="Account" />
        <Table.Column
          dataIndex="amount"
          title="Amount"
          align="right"
          render={(v: string, r: LedgerRow) => (
            <Typography.Text type={r.side === 'debit' ? 'danger' : 'success'}>
              <Amount value={v} unit={r.asset} />
            </Typography.Text>
          )}
        />
        <Table.Column dataIndex="part" title="Part" />
        <Table.Column dataIndex="created_at" title="At" render={(v: string) => <DateTime value={v} />} />
      </Table>
    ),
    orders: (
      <Table dataSource={tabs.orders} rowKey="id" size="small" pagination={page} locale={empty('No store orders')}>
        <Table.Column dataIndex="order_no" title="Order" />
        <Table.Column dataIndex="status" title="Status" render={(v: string) => <Status value={v} />} />
        <Table.Column
          dataIndex="pay_amount"
          title="Paid"
          align="right"
          render={(v: string, r: Detail['orders'][number]) => <Amount value={v} unit={r.pay_asset} />}
        />
        <Table.Column dataIndex="created_at" title="Ordered" render={(v: string) => <DateTime value={v} />} />
      </Table>
    ),
    miners: (
      <Table dataSource={tabs.miners} rowKey="id" size="small" pagination={page} locale={empty('No miners')}>
        <Table.Column dataIndex="id" title="ID" />
        <Table.Column dataIndex="kind" title="Kind" />
        <Table.Column
          dataIndex="status"
          title="Status"
          render={(v: string) => {
            const s = minerStatusLabel(v);
            return <Tag color={s.color}>{s.label}</Tag>;
          }}
        />
        <Table.Column dataIndex="power" title="Power" align="right" render={(v: string) => <Amount value={v} />} />
        <Table.Column dataIndex="created_at" title="Since" render={(v: string) => <DateTime value={v} />} />
      </Table>
    ),
    nodes: (
      <Table dataSource={tabs.nodes} rowKey="id" size="small" pagination={page} locale={empty('No nodes')}>
        <Table.Column dataIndex="id" title="ID" />
        <Table.Column dataIndex="tier_id" title="Tier" />
        <Table.Column dataIndex="pay_method" title="Paid by" />
        <Table.Column
          dataIndex="pay_amount"
          title="Paid"
          align="right"
          render={(v: string, r: Detail['nodes'][number]) => <Amount value={v} unit={r.pay_asset} />}
        />
        <Table.Column dataIndex="created_at" title="Bought" render={(v: string) => <DateTime value={v} />} />
      </Table>
    ),
    savings: (
      <Table dataSource={tabs.savings} rowKey="id" size="small" pagination={page} locale={empty('No savings')}>
        <Table.Column dataIndex="id" title="ID" />
        <Table.Column dataIndex="product_id" title="Product" />
        <Table.Column dataIndex="amount" title="Amount" align="right" render={(v: string) => <Amount value={v} />} />
        <Table.Column dataIndex="status" title="Status" render={(v: string) => <Tag>{v}</Tag>} />
        <Table.Column dataIndex="created_at" title="Since" render={(v: string) => <DateTime value={v} />} />
      </Table>
    ),
    team: (
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Space size="large" wrap>
          <Statistic title="Direct referrals" value={detail.team.direct_count} />
          <Statistic title="Team size" value={detail.team.team_size} />
          <Statistic title="Own performance" value={detail.team.me_performance} />
          <Statistic title="Team performance" value={detail.team.team_performance} />
        </Space>
        <Card size="small" title="Referrers (nearest first, up to ten levels)">
          <Table dataSource={tabs.referrers} rowKey="key" size="small" pagination={false} locale={empty('No referrer: a root account')}>
            <Table.Column dataIndex="depth" title="Level up" render={(v: number) => (v === 1 ? '1 (direct referrer)' : v)} />
            <Table.Column key="user" title="User" render={(_, r: Detail['team']['referrers'][number]) => <UserLink id={r.id} address={r.address} />} />
          </Table>
        </Card>
        <Card size="small" title={`Direct referrals (${tabs.directs.length} of ${detail.team.direct_count}, newest first)`}>
          <Table dataSource={tabs.directs} rowKey="id" size="small" pagination={page} locale={empty('Has referred nobody')}>
            <Table.Column key="user" title="User" render={(_, r: Detail['team']['directs'][number]) => <UserLink id={r.id} address={r.address} />} />
            <Table.Column dataIndex="created_at" title="Registered" render={(v: string) => <DateTime value={v} />} />
            <Table.Column
              dataIndex="frozen_at"
              title="State"
              render={(v: string | null) => (v ? <Tag color="red">frozen</Tag> : <Tag color="green">active</Tag>)}
            />
          </Table>
        </Card>
      </Space>
    ),
    sessions: (
      <Space direction="vertical" style={{ width: '100%' }}>
        {revokeAll.allowed ? (
          <Popconfirm
            title={`Revoke all ${tabs.sessions.length} live sessions? The user is signed out everywhere.`}
            onConfirm={async () => {
              await revokeAll.run({ user_id: detail.user.id });
              onChanged();
            }}
            disabled={tabs.sessions.length === 0}
          >
            <Button danger disabled={tabs.sessions.length === 0} loading={revokeAll.isPending}>
              Revoke all sessions
            </Button>
          </Popconfirm>
        ) : null}
        <Table dataSource={tabs.sessions} rowKey="id" size="small" pagination={page} locale={empty('No live sessions')}>
          <Table.Column dataIndex="id" title="Session" />
          <Table.Column dataIndex="created_at" title="Signed in" render={(v: string) => <DateTime value={v} />} />
          <Table.Column dataIndex="last_seen_at" title="Last seen" render={(v: string) => <DateTime value={v} />} />
          <Table.Column dataIndex="expires_at" title="Expires" render={(v: string) => <DateTime value={v} />} />
          <Table.Column
            key="actions"
            title="Actions"
            render={(_, r: Detail['sessions'][number]) =>
              revokeOne.allowed ? (
                <Popconfirm
                  title={`Revoke session #${r.id}?`}
                  onConfirm={async () => {
                    await revokeOne.run({ session_id: r.id });
                    onChanged();
                  }}
                >
                  <Button danger size="small">
                    Revoke
                  </Button>
                </Popconfirm>
              ) : null
            }
          />
        </Table>
      </Space>
    ),
  };

  return (
    <Card size="small">
      <Tabs
        activeKey={active}
        onChange={(key) => setActive(key as UserTabKey)}
        items={tabs.labels.map((t) => ({ key: t.key, label: t.label, children: bodies[t.key] }))}
      />
    </Card>
  );
}
