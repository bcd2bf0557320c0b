import { operatorRoutes, type AuditItem } from '@nadi/api/operator';
import { List, useTable } from '@refinedev/antd';
import { Button, Input, Space, Table, Typography, message } from 'antd';
import { useState } from 'react';
import { callRoute } from '../lib/api.ts';
import { Address, DateTime } from './format.tsx';

const filterKeys = ['actor', 'action', 'target_type', 'target_id'] as const;
type FilterKey = (typeof filterKeys)[number];
const placeholders: Record<FilterKey, string> = {
  actor: 'Actor address 0x…',
  action: 'Action (prefix: withdraw)',
  target_type: 'Target type',
  target_id: 'Target id',
};

/** Before and after as compact JSON (the trail keeps them as the action saw them). */
function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <>—</>;
  return (
    <Typography.Text code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 12 }}>
      {JSON.stringify(value)}
    </Typography.Text>
  );
}

/** GET /api/v1/operator/audit: the append-only trail, filtered, and its CSV export (same filters). */
export function AuditLogScreen() {
  const { tableProps, setFilters } = useTable<AuditItem>({ resource: 'audit', syncWithLocation: false });
  const [draft, setDraft] = useState<Partial<Record<FilterKey, string>>>({});
  const [isExporting, setExporting] = useState(false);
  const applied = () => Object.fromEntries(filterKeys.flatMap((key) => (draft[key]?.trim() ? [[key, draft[key].trim()]] : [])));

  const apply = () =>
    setFilters(
      filterKeys.map((field) => ({ field, operator: 'eq' as const, value: draft[field]?.trim() || undefined })),
      'replace',
    );

  const exportCsv = async () => {
    setExporting(true);
    try {
      const file = await callRoute(operatorRoutes.auditExport, applied());
      const url = URL.createObjectURL(new Blob([file.csv], { type: 'text/csv;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = file.filename;
      link.click();
      URL.revokeObjectURL(url);
      if (file.truncated) void message.warning(`The export holds the newest ${file.rows} lines; narrow the filter for the rest.`);
    } catch (error) {
      void message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setExporting(false);
    }
  };

  return (
    <List
      title="Audit log"
      headerButtons={
        <Button onClick={() => void exportCsv()} loading={isExporting}>
          Export CSV
        </Button>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        {filterKeys.map((key) => (
          <Input
            key={key}
            allowClear
            style={{ width: key === 'actor' ? 320 : 200 }}
            placeholder={placeholders[key]}
            value={draft[key] ?? ''}
            onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
            onPressEnter={apply}
          />
        ))}
        <Button type="primary" onClick={apply}>
          Filter
        </Button>
      </Space>
      <Table {...tableProps} rowKey="id" size="small">
        <Table.Column dataIndex="at" title="When" render={(v: string) => <DateTime value={v} />} />
        <Table.Column dataIndex="actor_address" title="Who" render={(v: string) => <Address value={v} />} />
        <Table.Column dataIndex="action" title="Action" />
        <Table.Column title="Target" render={(_, r: AuditItem) => `${r.target_type}${r.target_id ? ` #${r.target_id}` : ''}`} />
        <Table.Column dataIndex="before" title="Before" render={(v: unknown) => <Json value={v} />} />
        <Table.Column dataIndex="after" title="After" render={(v: unknown) => <Json value={v} />} />
        <Table.Column dataIndex="reason" title="Reason" render={(v: string | null) => v ?? '—'} />
      </Table>
    </List>
  );
}
