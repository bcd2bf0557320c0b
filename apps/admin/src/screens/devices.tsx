import { operatorDeviceCodeFilters, operatorDeviceStatuses, type OperatorDeviceItem } from '@nadi/api/mining';
import type { RouteData } from '@nadi/api/route';
import type { deviceRoutes } from '@nadi/api/mining';
import { List, useTable } from '@refinedev/antd';
import { useList, type CrudFilter } from '@refinedev/core';
import { Alert, Button, Form, Input, Modal, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useAction } from '../lib/use-action.ts';
import { actions } from '../providers/data-provider.ts';
import { bpsPercent, devicesPerRequestMax, parseDeviceLines } from './device-input.ts';
import { DateTime } from './format.tsx';

type DeviceModel = RouteData<typeof deviceRoutes.operatorModels>[number];

const codeLabels: Record<(typeof operatorDeviceCodeFilters)[number], string> = {
  without: 'no live code',
  issued: 'code issued (unused)',
  used: 'code used',
  revoked: 'code revoked',
};
const codeColors: Record<string, string> = { issued: 'gold', used: 'green', revoked: 'red' };

/** The device models as Select options (code · name), for the filters and forms of the device screens. */
export function useModelOptions() {
  const { result, query } = useList<DeviceModel>({ resource: 'device-models', pagination: { mode: 'off' } });
  return { options: result.data.map((m) => ({ value: m.code, label: `${m.code} · ${m.name}` })), isLoading: query.isLoading };
}

/** One `eq` filter of the list, merged with the others (model, status and code combine). */
function FieldFilter(props: {
  field: string;
  filters: CrudFilter[];
  setFilters: (filters: CrudFilter[], behavior: 'merge') => void;
  options: { value: string; label: string }[];
  allLabel: string;
  width: number;
}) {
  const value = props.filters.find((f) => 'field' in f && f.field === props.field)?.value as string | undefined;
  return (
    <Select<string>
      style={{ width: props.width }}
      value={value ?? 'all'}
      onChange={(v) => props.setFilters([{ field: props.field, operator: 'eq', value: v === 'all' ? undefined : v }], 'merge')}
      options={[{ value: 'all', label: props.allLabel }, ...props.options]}
    />
  );
}

export function DevicesScreen() {
  const { tableProps, setFilters, filters } = useTable<OperatorDeviceItem>({ resource: 'devices', syncWithLocation: false, pagination: { pageSize: 20 } });
  const models = useModelOptions();
  const revoke = useAction(actions.revokeCode, 'devices', 'Activation code revoked');
  const register = useAction(actions.registerDevices, 'devices', 'Devices registered');
  const [isRegistering, setRegistering] = useState(false);

  return (
    <List
      title="Devices"
      headerButtons={
        <Space wrap>
          <FieldFilter field="model" filters={filters} setFilters={setFilters} options={models.options} allLabel="All models" width={220} />
          <FieldFilter
            field="status"
            filters={filters}
            setFilters={setFilters}
            options={operatorDeviceStatuses.map((s) => ({ value: s, label: s }))}
            allLabel="Any status"
            width={140}
          />
          <FieldFilter
            field="code"
            filters={filters}
            setFilters={setFilters}
            options={operatorDeviceCodeFilters.map((c) => ({ value: c, label: codeLabels[c] }))}
            allLabel="Any code"
            width={190}
          />
          {register.allowed ? (
            <Button type="primary" onClick={() => setRegistering(true)}>
              Register devices
            </Button>
          ) : null}
        </Space>
      }
    >
      <Table {...tableProps} rowKey="serial" size="middle">
        <Table.Column
          dataIndex="serial"
          title="Serial"
          render={(v: string) => (
            <Typography.Text copyable style={{ fontFamily: 'monospace' }}>
              {v}
            </Typography.Text>
          )}
        />
        <Table.Column
          dataIndex="model"
          title="Model"
          render={(v: string, r: OperatorDeviceItem) => (
            <Space direction="vertical" size={0}>
              {v}
              <small>{r.model_name}</small>
            </Space>
          )}
        />
        <Table.Column
          dataIndex="owner"
          title="Owner"
          render={(v: string | null) => (v === null ? <Tag>unbound</Tag> : <span style={{ fontFamily: 'monospace' }}>{v}</span>)}
        />
        <Table.Column dataIndex="bound_at" title="Activated / bound at" render={(v: string | null) => <DateTime value={v} />} />
        <Table.Column
          dataIndex="code_state"
          title="Activation code"
          render={(v: string | null) => (v === null ? <Tag>none</Tag> : <Tag color={codeColors[v] ?? 'default'}>{v}</Tag>)}
        />
        <Table.Column dataIndex="online" title="Online" render={(v: boolean) => (v ? <Tag color="green">online</Tag> : <Tag>offline</Tag>)} />
        <Table.Column dataIndex="last_heartbeat_at" title="Last heartbeat" render={(v: string | null) => <DateTime value={v} />} />
        <Table.Column
          dataIndex="settled_uptime_bps"
          title="Uptime (last settled epoch)"
          align="right"
          render={(v: number | null, r: OperatorDeviceItem) =>
            v === null ? (
              '—'
            ) : (
              <span style={{ fontVariantNumeric: 'tabular-nums' }} title={`${v} bps`}>
                {bpsPercent(v)} <small>· epoch {r.settled_epoch}</small>
              </span>
            )
          }
        />
        <Table.Column
          key="actions"
          title="Actions"
          render={(_, r: OperatorDeviceItem) =>
            revoke.allowed && r.code_state === 'issued' && !r.activated ? (
              <Popconfirm
                title={`Revoke the unused code of ${r.serial}?`}
                description="The code on its card stops working; a later batch can give the device a new one."
                okText="Revoke"
                okButtonProps={{ danger: true }}
                onConfirm={() => revoke.run({ serial: r.serial })}
              >
                <Button danger size="small">
                  Revoke code
                </Button>
              </Popconfirm>
            ) : null
          }
        />
      </Table>
      <RegisterDevicesModal
        open={isRegistering}
        modelOptions={models.options}
        pending={register.isPending}
        onClose={() => setRegistering(false)}
        onSubmit={(values) => register.run(values)}
      />
    </List>
  );
}

interface RegisterForm {
  model_code: string;
  lines: string;
}

/** Register devices of one model from pasted "serial,public_key" lines, checked like the contract before sending. */
function RegisterDevicesModal(props: {
  open: boolean;
  modelOptions: { value: string; label: string }[];
  pending: boolean;
  onClose: () => void;
  onSubmit: (values: { model_code: string; devices: { serial: string; public_key: string }[] }) => Promise<{ registered: number }>;
}) {
  const [form] = Form.useForm<RegisterForm>();
  const lines = Form.useWatch('lines', form) ?? '';
  const parsed = parseDeviceLines(lines);
  const [registered, setRegistered] = useState<{ registered: number; given: number } | null>(null);

  const close = () => {
    form.resetFields();
    setRegistered(null);
    props.onClose();
  };

  return (
    <Modal
      open={props.open}
      width={760}
      title="Register devices"
      okText={registered ? 'Done' : `Register ${parsed.items.length} device${parsed.items.length === 1 ? '' : 's'}`}
      okButtonProps={{ loading: props.pending, disabled: !registered && (parsed.items.length === 0 || parsed.errors.length > 0) }}
      cancelButtonProps={registered ? { style: { display: 'none' } } : {}}
      onCancel={close}
      onOk={async () => {
        if (registered) return close();
        const values = await form.validateFields();
        const result = await props.onSubmit({ model_code: values.model_code, devices: parsed.items });
        setRegistered({ registered: result.registered, given: parsed.items.length });
        form.setFieldValue('lines', '');
      }}
    >
      {registered ? (
        <Alert
          type="success"
          showIcon
          message={`${registered.registered} of ${registered.given} devices registered`}
          description={
            registered.registered < registered.given
              ? `${registered.given - registered.registered} were registered already with the same key and model and were left as they are.`
              : 'They are listed as unbound; generate their activation codes under Activation codes.'
          }
        />
      ) : (
        <Form form={form} layout="vertical">
          <Form.Item name="model_code" label="Model" rules={[{ required: true, message: 'Choose the model of these devices' }]}>
            <Select options={props.modelOptions} placeholder="Model" style={{ width: 320 }} />
          </Form.Item>
          <Form.Item
            name="lines"
            label={`Devices: one "serial,public_key" line each (the Ed25519 key as 64 hex digits; at most ${devicesPerRequestMax})`}
            rules={[{ required: true, message: 'Paste at least one line' }]}
            extra={`${parsed.items.length} valid line${parsed.items.length === 1 ? '' : 's'}`}
          >
            <Input.TextArea rows={10} style={{ fontFamily: 'monospace' }} placeholder={'NB1-000123,3f1c…(64 hex digits)\nNB1-000124,9ab0…'} />
          </Form.Item>
          {parsed.errors.length > 0 ? (
            <Alert
              type="error"
              showIcon
              message={`${parsed.errors.length} line${parsed.errors.length === 1 ? '' : 's'} to fix before registering`}
              description={
                <ul style={{ margin: 0, paddingLeft: 18, maxHeight: 160, overflow: 'auto' }}>
                  {parsed.errors.slice(0, 50).map((e) => (
                    <li key={e}>{e}</li>
                  ))}
                </ul>
              }
            />
          ) : null}
        </Form>
      )}
    </Modal>
  );
}
