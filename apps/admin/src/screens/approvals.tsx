import { approvalStatuses, type ApprovalItem } from '@nadi/api/operator';
import { List, useTable } from '@refinedev/antd';
import { Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { readSession } from '../lib/session.ts';
import { useAction } from '../lib/use-action.ts';
import { actions } from '../providers/data-provider.ts';
import { StatusFilter } from './status-filter.tsx';
import { Address, DateTime } from './format.tsx';
import { ApproveReject, ReasonModal } from './reason-modal.tsx';

const statusColors: Record<string, string> = { pending: 'gold', approved: 'green', rejected: 'red' };

/**
 * Four-eyes requests (GET /api/v1/operator/approvals): a second operator approves (the action runs
 * then) or rejects with a reason; the server refuses one's own request (APPROVAL_SELF).
 */
export function ApprovalsScreen() {
  const { tableProps, setFilters, filters } = useTable<ApprovalItem>({
    resource: 'approvals',
    filters: { initial: [{ field: 'status', operator: 'eq', value: 'pending' }] },
    syncWithLocation: false,
  });
  const approve = useAction(actions.approve, 'approvals', 'Approved: the action ran');
  const reject = useAction(actions.rejectApproval, 'approvals', 'Request rejected');
  const [rejecting, setRejecting] = useState<ApprovalItem | null>(null);
  // One's own request needs someone else (APPROVAL_SELF): no buttons for it, only who must decide.
  const me = readSession()?.address.toLowerCase();

  return (
    <List
      title="Approvals"
      headerButtons={<StatusFilter filters={filters} setFilters={setFilters} options={approvalStatuses.map((s) => ({ value: s, label: s }))} />}
    >
      <Table {...tableProps} rowKey="id" size="middle">
        <Table.Column dataIndex="id" title="ID" />
        <Table.Column dataIndex="kind" title="Kind" render={(v: string) => <Tag>{v.replace('_', ' ')}</Tag>} />
        <Table.Column dataIndex="summary" title="What" />
        <Table.Column
          title="Requested"
          render={(_, r: ApprovalItem) => (
            <Space direction="vertical" size={0}>
              <Address value={r.requested_by_address} />
              <DateTime value={r.requested_at} />
              {r.reason ? <small>{r.reason}</small> : null}
            </Space>
          )}
        />
        <Table.Column
          dataIndex="status"
          title="Status"
          render={(v: string, r: ApprovalItem) => (
            <Space direction="vertical" size={0}>
              <Tag color={statusColors[v] ?? 'default'}>{v}</Tag>
              {r.decided_at ? <DateTime value={r.decided_at} /> : null}
              {r.decision_reason ? <small>{r.decision_reason}</small> : null}
            </Space>
          )}
        />
        <Table.Column
          key="actions"
          title="Actions"
          render={(_, r: ApprovalItem) =>
            r.status === 'pending' && r.requested_by_address.toLowerCase() === me ? (
              <small>Your request: another operator decides</small>
            ) : r.status === 'pending' ? (
              <ApproveReject
                confirm={`Approve request #${r.id}? It runs at once.`}
                canApprove={approve.allowed}
                canReject={reject.allowed}
                onApprove={() => approve.run({ id: r.id })}
                onReject={() => setRejecting(r)}
              />
            ) : null
          }
        />
      </Table>
      <ReasonModal
        open={rejecting !== null}
        title={rejecting ? `Reject request #${rejecting.id}` : ''}
        okText="Reject"
        label="Reason"
        pending={reject.isPending}
        onCancel={() => setRejecting(null)}
        onSubmit={async (reason) => {
          if (!rejecting) return;
          await reject.run({ id: rejecting.id, reason });
          setRejecting(null);
        }}
      />
    </List>
  );
}
