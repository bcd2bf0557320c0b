import type { OperatorWithdrawRecord } from '@nadi/api/onchain';
import { List, useTable } from '@refinedev/antd';
import { Space, Table } from 'antd';
import { useState } from 'react';
import { useAction } from '../lib/use-action.ts';
import { actions } from '../providers/data-provider.ts';
import { StatusFilter } from './status-filter.tsx';
import { Address, Amount, DateTime, Status, TxLink, useExplorerUrl } from './format.tsx';
import { ApproveReject, ReasonModal } from './reason-modal.tsx';

const statusLabels: Record<number, [string, string]> = {
  0: ['pending', 'pending review'],
  1: ['sending', 'approved, sending'],
  2: ['completed', 'completed'],
  3: ['rejected', 'rejected / failed'],
};

export function WithdrawalsScreen() {
  const { tableProps, setFilters, filters } = useTable<OperatorWithdrawRecord>({
    resource: 'withdrawals',
    filters: { initial: [{ field: 'status', operator: 'eq', value: 0 }] },
    syncWithLocation: false,
  });
  const approve = useAction(actions.approveWithdrawal, 'withdrawals', 'Withdrawal approved');
  const reject = useAction(actions.rejectWithdrawal, 'withdrawals', 'Withdrawal rejected; the funds returned');
  const [rejecting, setRejecting] = useState<OperatorWithdrawRecord | null>(null);
  const explorer = useExplorerUrl();

  return (
    <List
      title="Withdrawals"
      headerButtons={
        <StatusFilter
          filters={filters}
          setFilters={setFilters}
          width={200}
          options={Object.entries(statusLabels).map(([v, [, label]]) => ({ value: Number(v), label }))}
        />
      }
    >
      <Table {...tableProps} rowKey="id" size="middle">
        <Table.Column dataIndex="id" title="ID" />
        <Table.Column
          dataIndex="user_address"
          title="User"
          render={(v: string, r: OperatorWithdrawRecord) => (
            <Space>
              #{r.user_id}
              <Address value={v} />
            </Space>
          )}
        />
        <Table.Column dataIndex="amount" title="Amount (NADI)" align="right" render={(v: string) => <Amount value={v} />} />
        <Table.Column dataIndex="fee" title="Fee" align="right" render={(v: string) => <Amount value={v} />} />
        <Table.Column dataIndex="receive" title="Receives" align="right" render={(v: string) => <Amount value={v} />} />
        <Table.Column
          dataIndex="status"
          title="Status"
          render={(v: number, r: OperatorWithdrawRecord) => (
            <Space direction="vertical" size={0}>
              <Status value={statusLabels[v]?.[0] ?? String(v)} label={statusLabels[v]?.[1]} />
              {r.reason ? <small>{r.reason}</small> : null}
              {v === 1 ? <small>{`${r.confirmations}/${r.confirmations_required} confirmations`}</small> : null}
            </Space>
          )}
        />
        <Table.Column dataIndex="created_at" title="Requested" render={(v: string) => <DateTime value={v} />} />
        <Table.Column
          key="chain"
          title="To / transaction"
          render={(_, r: OperatorWithdrawRecord) => (
            <Space direction="vertical" size={0}>
              <Address value={r.to_address} />
              {r.tx_hash ? <TxLink hash={r.tx_hash} explorer={explorer} /> : <small>not sent yet</small>}
            </Space>
          )}
        />
        {approve.allowed || reject.allowed ? (
          <Table.Column
            key="actions"
            title="Actions"
            render={(_, r: OperatorWithdrawRecord) =>
              r.status === 0 ? (
                <ApproveReject
                  confirm={`Approve withdrawal #${r.id} of ${r.amount} NADI?`}
                  canApprove={approve.allowed}
                  canReject={reject.allowed}
                  onApprove={() => approve.run({ id: r.id })}
                  onReject={() => setRejecting(r)}
                />
              ) : null
            }
          />
        ) : null}
      </Table>
      <ReasonModal
        open={rejecting !== null}
        title={`Reject withdrawal #${rejecting?.id ?? ''}`}
        okText="Reject"
        label="Reason (shown to the user)"
        maxLength={200}
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
