import { nodeSaleStates, type OperatorTier } from '@nadi/api/node';
import { List, useTable } from '@refinedev/antd';
import { Alert, Button, Form, Input, InputNumber, Modal, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { amountRule } from '../lib/decimal.ts';
import { submitForm, useAction } from '../lib/use-action.ts';
import { actions } from '../providers/data-provider.ts';
import { Amount } from './format.tsx';

const saleStateColors: Record<string, string> = { on_sale: 'green', sold_out: 'gold', closed: 'default' };

/** machine_rate_bps as a percent for reading: 250 → "2.5 %" (string math, no float). */
function bpsText(bps: number): string {
  const whole = Math.trunc(bps / 100);
  const cents = bps % 100;
  return cents === 0 ? `${whole} %` : `${whole}.${String(cents).padStart(2, '0').replace(/0$/, '')} %`;
}

/** The form's fields: tierBody without the id, amounts and power as text. */
interface TierForm {
  name: string;
  price_usdt: string;
  total_quota: number;
  per_user_limit: number;
  gift_power: string;
  machine_rate_bps: number;
  withdraw_rate: number;
  is_on_sale: boolean;
}

export function NodeTiersScreen() {
  const { tableProps } = useTable<OperatorTier>({
    resource: 'node-tiers',
    syncWithLocation: false,
    pagination: { mode: 'off' },
    filters: { mode: 'off' },
    sorters: { mode: 'off' },
  });
  const save = useAction(actions.saveTier, 'node-tiers', 'Tier saved');
  const [editing, setEditing] = useState<OperatorTier | null>(null);
  const [form] = Form.useForm<TierForm>();

  const [initial, setInitial] = useState<Partial<TierForm>>({});

  /** The dialog may reopen before the last one was destroyed: the values are set on the form as well. */
  const open = (tier: OperatorTier) => {
    const values: TierForm = {
      name: tier.name,
      price_usdt: tier.price_usdt,
      total_quota: tier.total_quota,
      per_user_limit: tier.per_user_limit,
      gift_power: tier.gift_power,
      machine_rate_bps: tier.machine_rate_bps,
      withdraw_rate: tier.withdraw_rate,
      is_on_sale: tier.is_on_sale,
    };
    setInitial(values);
    form.setFieldsValue(values);
    setEditing(tier);
  };

  return (
    <List title="Node tiers">
      <Table {...tableProps} rowKey="id" size="middle">
        <Table.Column dataIndex="level_id" title="Level" render={(v: number) => `T${v}`} />
        <Table.Column dataIndex="name" title="Name" />
        <Table.Column dataIndex="price_usdt" title="Price (USDT)" align="right" render={(v: string) => <Amount value={v} />} />
        <Table.Column
          dataIndex="sold"
          title="Sold / quota"
          align="right"
          render={(v: number, r: OperatorTier) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>{`${v} / ${r.total_quota}`}</span>}
        />
        <Table.Column dataIndex="holders" title="Holders" align="right" />
        <Table.Column dataIndex="per_user_limit" title="Per user" align="right" />
        <Table.Column dataIndex="gift_power" title="Gift power (P)" align="right" render={(v: string) => <Amount value={v} />} />
        <Table.Column dataIndex="machine_rate_bps" title="Mining bonus" align="right" render={(v: number) => bpsText(v)} />
        <Table.Column dataIndex="withdraw_rate" title="Dividend weight" align="right" />
        <Table.Column
          dataIndex="sale_state"
          title="Sale"
          filters={nodeSaleStates.map((s) => ({ text: s.replace('_', ' '), value: s }))}
          onFilter={(value, r: OperatorTier) => r.sale_state === value}
          render={(v: string) => <Tag color={saleStateColors[v] ?? 'default'}>{v.replace('_', ' ')}</Tag>}
        />
        <Table.Column
          key="actions"
          title="Actions"
          render={(_, r: OperatorTier) =>
            save.allowed ? (
              <Button size="small" onClick={() => open(r)}>
                Edit…
              </Button>
            ) : null
          }
        />
      </Table>
      <Modal
        open={editing !== null}
        title={`Edit tier T${editing?.level_id ?? ''}`}
        okText="Save tier"
        okButtonProps={{ loading: save.isPending }}
        onCancel={() => setEditing(null)}
        onOk={async () => {
          if (!editing) return;
          const send = (values: TierForm) =>
            save.run({ ...values, id: editing.id, price_usdt: values.price_usdt.trim(), gift_power: values.gift_power.trim() });
          if (await submitForm(form, send)) setEditing(null);
        }}
        destroyOnHidden
      >
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message={`${editing?.sold ?? 0} sold, held by ${editing?.holders ?? 0} user${editing?.holders === 1 ? '' : 's'}. The quota cannot go below what is sold; a price change applies to the next purchase.`}
        />
        <Form form={form} layout="vertical" preserve={false} initialValues={initial}>
          <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true, max: 40 }]}>
            <Input maxLength={40} />
          </Form.Item>
          <Form.Item name="price_usdt" label="Price (USDT)" rules={[{ required: true, message: 'Required' }, amountRule()]}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item name="total_quota" label="Total quota" rules={[{ required: true, type: 'integer', min: 0, max: 10_000_000 }]}>
            <InputNumber style={{ width: '100%' }} precision={0} />
          </Form.Item>
          <Form.Item name="per_user_limit" label="Per-user limit" rules={[{ required: true, type: 'integer', min: 1, max: 1000 }]}>
            <InputNumber style={{ width: '100%' }} precision={0} />
          </Form.Item>
          <Form.Item
            name="gift_power"
            label="Gift power (P, up to 2 decimals)"
            rules={[{ required: true, pattern: /^[0-9]{1,9}(\.[0-9]{1,2})?$/, message: 'A power like 300 or 300.25' }]}
          >
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item
            name="machine_rate_bps"
            label="Node mining bonus (basis points: 100 = 1 %)"
            rules={[{ required: true, type: 'integer', min: 0, max: 10_000 }]}
          >
            <InputNumber style={{ width: '100%' }} precision={0} />
          </Form.Item>
          <Form.Item name="withdraw_rate" label="Fee dividend weight" rules={[{ required: true, type: 'integer', min: 0, max: 1_000_000 }]}>
            <InputNumber style={{ width: '100%' }} precision={0} />
          </Form.Item>
          <Form.Item name="is_on_sale" label="On sale" valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </List>
  );
}
