import type { OperatorRoleItem } from '@nadi/api/operator';
import type { OperatorUserRow } from '@nadi/api/operator-users';
import { List, useTable } from '@refinedev/antd';
import { useList } from '@refinedev/core';
import { Alert, Input, Space, Table, Tag } from 'antd';
import { Link, useNavigate } from 'react-router';
import { Address, DateTime } from './format.tsx';
import { emptySearchText, rolesByAddress } from './user-rows.ts';

export const roleColors: Record<string, string> = { viewer: 'default', operator: 'blue', admin: 'purple' };

/**
 * Users (GET /api/v1/operator/users?q=): search by id, invite code or address prefix, newest first;
 * a row opens the user's detail. The console role column joins the page with the role holders.
 */
export function UsersScreen() {
  const navigate = useNavigate();
  const { tableProps, setFilters, filters, tableQuery } = useTable<OperatorUserRow>({ resource: 'users', syncWithLocation: false });
  const roles = useList<OperatorRoleItem>({ resource: 'roles', pagination: { mode: 'off' } });
  const byAddress = rolesByAddress(roles.result?.data);
  const q = String(filters.find((f) => 'field' in f && f.field === 'q')?.value ?? '');

  return (
    <List
      title="Users"
      headerButtons={
        <Input.Search
          allowClear
          enterButton="Search"
          maxLength={100}
          style={{ width: 420 }}
          placeholder="Id, invite code or address (prefix)"
          defaultValue={q}
          onSearch={(value) => setFilters([{ field: 'q', operator: 'eq', value: value.trim() || undefined }], 'replace')}
        />
      }
    >
      {tableQuery.isError ? (
        <Alert type="error" showIcon style={{ marginBottom: 16 }} message="The users could not be loaded" description={tableQuery.error?.message} />
      ) : null}
      <Table
        {...tableProps}
        rowKey="id"
        size="middle"
        locale={{ emptyText: emptySearchText(q) }}
        onRow={(r: OperatorUserRow) => ({
          style: { cursor: 'pointer' },
          // The id link and the address's copy button do their own thing.
          onClick: (event) => {
            if (!(event.target as HTMLElement).closest('a, button, [role="button"]')) void navigate(`/users/${r.id}`);
          },
        })}
      >
        <Table.Column dataIndex="id" title="ID" render={(v: number) => <Link to={`/users/${v}`}>#{v}</Link>} />
        <Table.Column dataIndex="address" title="Address" render={(v: string) => <Address value={v} />} />
        <Table.Column dataIndex="invite_code" title="Invite code" render={(v: string) => <code>{v}</code>} />
        <Table.Column dataIndex="name" title="Name" />
        <Table.Column dataIndex="referrer_id" title="Referrer" render={(v: number | null) => (v === null ? '—' : <Link to={`/users/${v}`}>#{v}</Link>)} />
        <Table.Column dataIndex="created_at" title="Registered" render={(v: string) => <DateTime value={v} />} />
        <Table.Column
          key="state"
          title="State"
          render={(_, r: OperatorUserRow) => (r.frozen_at ? <Tag color="red">frozen</Tag> : <Tag color="green">active</Tag>)}
        />
        <Table.Column
          key="role"
          title="Console role"
          render={(_, r: OperatorUserRow) => {
            const held = byAddress.get(r.address.toLowerCase());
            if (!held) return '—';
            return (
              <Space size={4}>
                <Tag color={roleColors[held.role]}>{held.role}</Tag>
                {held.isConfigured ? <Tag>configured</Tag> : null}
              </Space>
            );
          }}
        />
      </Table>
    </List>
  );
}
