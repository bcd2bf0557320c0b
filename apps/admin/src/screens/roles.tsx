import type { OperatorRoleItem } from '@nadi/api/operator';
import { operatorRoles, type OperatorRole } from '@nadi/api/route';
import { List, useTable } from '@refinedev/antd';
import { Button, Form, Input, Modal, Popconfirm, Select, Space, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { submitForm, useAction } from '../lib/use-action.ts';
import { actions } from '../providers/data-provider.ts';
import { Address, DateTime } from './format.tsx';
import { isAddress } from './user-rows.ts';
import { roleColors } from './users.tsx';

const roleOptions = operatorRoles.map((r) => ({ value: r, label: r }));
const roleHelp: Record<OperatorRole, string> = {
  viewer: 'reads every screen',
  operator: 'also reviews withdrawals, ships orders, publishes notices, freezes accounts',
  admin: 'also changes products, tiers, savings products, economy parameters and roles',
};

interface GrantForm {
  address: string;
  role: OperatorRole;
}

/**
 * Console roles (GET /api/v1/operator/roles): every holder, the configured admins (OPERATOR_ADDRESSES)
 * first and unchangeable here. Admins grant a role to a registered user's address, change it or take
 * it away (POST /api/v1/operator/role, audited).
 */
export function RolesScreen() {
  const { tableProps } = useTable<OperatorRoleItem>({ resource: 'roles', syncWithLocation: false, pagination: { mode: 'client', pageSize: 50 } });
  const setRole = useAction(actions.setRole, 'roles', 'Role saved');
  const [isGranting, setGranting] = useState(false);
  const [form] = Form.useForm<GrantForm>();

  return (
    <List
      title="Console roles"
      headerButtons={
        setRole.allowed ? (
          <Button
            type="primary"
            onClick={() => {
              form.resetFields();
              setGranting(true);
            }}
          >
            Grant a role
          </Button>
        ) : null
      }
    >
      <Table {...tableProps} rowKey="user_id" size="middle" locale={{ emptyText: 'Nobody holds a console role' }}>
        <Table.Column
          dataIndex="address"
          title="Holder"
          render={(v: string, r: OperatorRoleItem) => (
            <Space>
              <Link to={`/users/${r.user_id}`}>#{r.user_id}</Link>
              <Address value={v} />
            </Space>
          )}
        />
        <Table.Column
          dataIndex="role"
          title="Role"
          render={(v: OperatorRole, r: OperatorRoleItem) => (
            <Space size={4}>
              <Tooltip title={roleHelp[v]}>
                <Tag color={roleColors[v]}>{v}</Tag>
              </Tooltip>
              {r.is_configured ? (
                <Tooltip title="An admin by configuration (OPERATOR_ADDRESSES): not changeable here">
                  <Tag>configured</Tag>
                </Tooltip>
              ) : null}
            </Space>
          )}
        />
        <Table.Column dataIndex="granted_by" title="Granted by" render={(v: number | null) => (v === null ? '—' : <Link to={`/users/${v}`}>#{v}</Link>)} />
        <Table.Column dataIndex="granted_at" title="Granted" render={(v: string | null) => <DateTime value={v} />} />
        {setRole.allowed ? (
          <Table.Column
            key="actions"
            title="Actions"
            render={(_, r: OperatorRoleItem) =>
              r.is_configured ? (
                <small>set by configuration</small>
              ) : (
                <Space>
                  <Select<OperatorRole>
                    size="small"
                    style={{ width: 120 }}
                    value={r.role}
                    options={roleOptions}
                    disabled={setRole.isPending}
                    aria-label={`Change the role of ${r.address}`}
                    onChange={(role) => setRole.run({ address: r.address, role }).catch(() => undefined)}
                  />
                  <Popconfirm
                    title={`Take the ${r.role} role away from ${r.address.slice(0, 10)}…?`}
                    onConfirm={() => setRole.run({ address: r.address, role: null })}
                  >
                    <Button danger size="small">
                      Remove
                    </Button>
                  </Popconfirm>
                </Space>
              )
            }
          />
        ) : null}
      </Table>
      <Modal
        open={isGranting}
        title="Grant a console role"
        okText="Grant"
        okButtonProps={{ loading: setRole.isPending }}
        onCancel={() => setGranting(false)}
        onOk={async () => {
          if (await submitForm(form, (values) => setRole.run({ address: values.address.trim(), role: values.role }))) setGranting(false);
        }}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" preserve={false} initialValues={{ role: 'viewer' }}>
          <Form.Item
            name="address"
            label="Wallet address of a registered user"
            rules={[
              { required: true, whitespace: true, message: 'Enter the address' },
              {
                validator: async (_, value: string | undefined) => (!value || isAddress(value) ? undefined : Promise.reject(new Error('0x and 40 hex digits'))),
              },
            ]}
          >
            <Input placeholder="0x…" maxLength={42} style={{ fontFamily: 'monospace' }} />
          </Form.Item>
          <Form.Item name="role" label="Role" rules={[{ required: true }]} extra="A holder's role is replaced; each user holds one at most.">
            <Select<OperatorRole> options={operatorRoles.map((r) => ({ value: r, label: `${r}: ${roleHelp[r]}` }))} />
          </Form.Item>
        </Form>
      </Modal>
    </List>
  );
}
