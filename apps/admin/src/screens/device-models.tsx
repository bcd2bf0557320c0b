import { deviceModelBody, type deviceRoutes } from '@nadi/api/mining';
import type { RouteData } from '@nadi/api/route';
import { parseAmount } from '@nadi/money/money';
import { List, useTable } from '@refinedev/antd';
import { Button, Form, Input, Modal, Table } from 'antd';
import { useState } from 'react';
import { submitForm, useAction } from '../lib/use-action.ts';
import { actions } from '../providers/data-provider.ts';
import { zodRule } from './device-input.ts';
import { Amount } from './format.tsx';

type DeviceModel = RouteData<typeof deviceRoutes.operatorModels>[number];
interface ModelForm {
  code: string;
  name: string;
  base_power: string;
  gift_power: string;
  price_usdt: string;
}

const powerRule = (what: string) => zodRule(deviceModelBody.shape.base_power, `${what}: up to 9 digits and 2 decimals (e.g. 100 or 12.5)`);

export function DeviceModelsScreen() {
  const { tableProps } = useTable<DeviceModel>({ resource: 'device-models', syncWithLocation: false, pagination: { mode: 'client', pageSize: 20 } });
  const save = useAction(actions.saveDeviceModel, 'device-models', 'Device model saved');
  const [editing, setEditing] = useState<DeviceModel | 'new' | null>(null);
  const [form] = Form.useForm<ModelForm>();

  const open = (model?: DeviceModel) => {
    form.setFieldsValue(
      model
        ? { code: model.code, name: model.name, base_power: model.base_power, gift_power: model.gift_power, price_usdt: model.price_usdt }
        : { code: '', name: '', base_power: '', gift_power: '0', price_usdt: '' },
    );
    setEditing(model ?? 'new');
  };

  return (
    <List
      title="Device models"
      headerButtons={
        save.allowed ? (
          <Button type="primary" onClick={() => open()}>
            Add a model
          </Button>
        ) : null
      }
    >
      <Table {...tableProps} rowKey="id" size="middle">
        <Table.Column dataIndex="id" title="ID" />
        <Table.Column dataIndex="code" title="Code" render={(v: string) => <span style={{ fontFamily: 'monospace' }}>{v}</span>} />
        <Table.Column dataIndex="name" title="Name" />
        <Table.Column dataIndex="base_power" title="Base power" align="right" />
        <Table.Column dataIndex="gift_power" title="Gift power" align="right" />
        <Table.Column dataIndex="price_usdt" title="Price (USDT)" align="right" render={(v: string) => <Amount value={v} />} />
        <Table.Column
          key="actions"
          title="Actions"
          render={(_, r: DeviceModel) =>
            save.allowed ? (
              <Button size="small" onClick={() => open(r)}>
                Change…
              </Button>
            ) : null
          }
        />
      </Table>
      <Modal
        open={editing !== null}
        title={editing === 'new' ? 'Add a device model' : `Change model ${editing?.code ?? ''}`}
        okText="Save"
        okButtonProps={{ loading: save.isPending }}
        onCancel={() => setEditing(null)}
        onOk={async () => {
          if (await submitForm(form, (values) => save.run({ ...values, name: values.name.trim() }))) setEditing(null);
        }}
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="code"
            label="Code (the model's key: registrations and products name it)"
            rules={[{ required: true }, zodRule(deviceModelBody.shape.code, '2–32 capital letters, digits or dashes')]}
          >
            <Input disabled={editing !== 'new'} style={{ fontFamily: 'monospace' }} placeholder="NADI-BOX-2" />
          </Form.Item>
          <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true, max: 64 }]}>
            <Input />
          </Form.Item>
          <Form.Item
            name="base_power"
            label="Base power"
            rules={[{ required: true }, powerRule('Base power'), { validator: async (_, v: string) => positive(v) }]}
          >
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item name="gift_power" label="Gift power" rules={[{ required: true }, powerRule('Gift power')]}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item name="price_usdt" label="Price (USDT)" rules={[{ required: true }, { validator: async (_, v: string) => amount(v) }]}>
            <Input inputMode="decimal" />
          </Form.Item>
        </Form>
      </Modal>
    </List>
  );
}

/** Base power above zero (the server refuses 0), checked on the text: no float arithmetic. */
function positive(value: string | undefined) {
  if (value && /^[0.]+$/.test(value)) throw new Error('Base power must be above 0');
}

/** The price as the contract's amount: a decimal string above zero, at most 18 decimals. */
function amount(value: string | undefined) {
  if (!value) return;
  const parsed = parseAmount(value);
  if (!parsed.ok) throw new Error('A price above 0, as digits with at most 18 decimals (e.g. 199.5)');
}
