import { dayRatePpmMax, pledgeKinds, pledgeProductStatuses, termEpochsMax, type OperatorPledgeProduct, type PledgeKind } from '@nadi/api/pledge';
import { List, useTable } from '@refinedev/antd';
import { Alert, Button, Col, DatePicker, Form, Input, InputNumber, Modal, Row, Select, Space, Switch, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { amountRule, compareAmounts, percentToPpm, ppmToPercent } from '../lib/decimal.ts';
import { productBody, type ProductForm } from '../lib/savings-form.ts';
import { submitForm, useAction } from '../lib/use-action.ts';
import { actions } from '../providers/data-provider.ts';
import { Amount, DateTime } from './format.tsx';

const kindLabels: Record<PledgeKind, string> = { flexible: 'Flexible', locked: 'Locked', joint: 'Joint', node: 'Node savings' };
const statusColors: Record<string, string> = { open: 'green', upcoming: 'blue', full: 'gold', closed: 'default' };

export function SavingsProductsScreen() {
  const { tableProps } = useTable<OperatorPledgeProduct>({
    resource: 'savings-products',
    syncWithLocation: false,
    pagination: { mode: 'off' },
    filters: { mode: 'off' },
    sorters: { mode: 'off' },
  });
  const save = useAction(actions.saveSavingsProduct, 'savings-products', 'Savings product saved');
  const [editing, setEditing] = useState<OperatorPledgeProduct | 'new' | null>(null);
  const [form] = Form.useForm<ProductForm>();
  const kind = Form.useWatch('kind', form);
  const current = editing === 'new' ? null : editing;

  const [initial, setInitial] = useState<Partial<ProductForm>>({});

  /** Every field named (undefined clears it): the dialog may reopen before the last one was destroyed. */
  const open = (p: OperatorPledgeProduct | 'new') => {
    const start = dayjs().startOf('hour');
    const values: Partial<ProductForm> =
      p === 'new'
        ? {
            kind: 'flexible',
            name: undefined,
            term_epochs: 0,
            day_rate: undefined,
            epoch_budget: undefined,
            min_pledge: undefined,
            pool_cap: undefined,
            window: [start, start.add(365, 'day')],
            is_enabled: true,
            sort: 100,
          }
        : {
            kind: p.kind,
            name: p.name,
            term_epochs: p.term_epochs,
            day_rate: ppmToPercent(p.day_rate_ppm),
            epoch_budget: p.epoch_budget ?? undefined,
            min_pledge: p.min_pledge,
            pool_cap: p.pool_cap,
            window: [dayjs(p.starts_at), dayjs(p.ends_at)],
            is_enabled: p.is_enabled,
            sort: p.sort,
          };
    setInitial(values);
    form.setFieldsValue(values);
    setEditing(p);
  };

  return (
    <List
      title="Savings products"
      headerButtons={
        save.allowed ? (
          <Button type="primary" onClick={() => open('new')}>
            New product
          </Button>
        ) : null
      }
    >
      <Table {...tableProps} rowKey="id" size="middle">
        <Table.Column dataIndex="id" title="ID" />
        <Table.Column
          dataIndex="name"
          title="Name"
          render={(v: string, r: OperatorPledgeProduct) => (
            <Space direction="vertical" size={0}>
              {v}
              <small>{r.kind === 'locked' ? `${kindLabels[r.kind]} · ${r.term_epochs} epochs` : kindLabels[r.kind]}</small>
            </Space>
          )}
          filters={pledgeKinds.map((k) => ({ text: kindLabels[k], value: k }))}
          onFilter={(value, r: OperatorPledgeProduct) => r.kind === value}
        />
        <Table.Column
          dataIndex="day_rate_ppm"
          title="Day rate"
          align="right"
          render={(v: number, r: OperatorPledgeProduct) =>
            r.kind === 'joint' ? (
              <Space direction="vertical" size={0} style={{ alignItems: 'flex-end' }}>
                <Amount value={r.epoch_budget} unit="NADI / epoch" />
                <small>shared pro rata</small>
              </Space>
            ) : (
              <Space direction="vertical" size={0} style={{ alignItems: 'flex-end' }}>
                {`${ppmToPercent(v)} %`}
                <small>{v} ppm</small>
              </Space>
            )
          }
        />
        <Table.Column dataIndex="min_pledge" title="Minimum" align="right" render={(v: string) => <Amount value={v} />} />
        <Table.Column
          dataIndex="total"
          title="Pledged / cap (NADI)"
          align="right"
          render={(v: string, r: OperatorPledgeProduct) => (
            <span style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>{`${v} / ${r.pool_cap}`}</span>
          )}
        />
        <Table.Column
          dataIndex="active_positions"
          title="Positions"
          align="right"
          render={(v: number, r: OperatorPledgeProduct) => `${v} active / ${r.positions}`}
        />
        <Table.Column
          dataIndex="starts_at"
          title="Window"
          render={(v: string, r: OperatorPledgeProduct) => (
            <Space direction="vertical" size={0}>
              <DateTime value={v} />
              <DateTime value={r.ends_at} />
            </Space>
          )}
        />
        <Table.Column dataIndex="sort" title="Sort" align="right" />
        <Table.Column
          dataIndex="status"
          title="Status"
          filters={pledgeProductStatuses.map((s) => ({ text: s, value: s }))}
          onFilter={(value, r: OperatorPledgeProduct) => r.status === value}
          render={(v: string, r: OperatorPledgeProduct) => (
            <Space direction="vertical" size={0}>
              <Tag color={statusColors[v] ?? 'default'}>{v}</Tag>
              {r.is_enabled ? null : <small>disabled</small>}
            </Space>
          )}
        />
        <Table.Column
          key="actions"
          title="Actions"
          render={(_, r: OperatorPledgeProduct) =>
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
        width={640}
        title={current ? `Edit savings product #${current.id}` : 'New savings product'}
        okText="Save product"
        okButtonProps={{ loading: save.isPending }}
        onCancel={() => setEditing(null)}
        onOk={async () => {
          if (await submitForm(form, (values) => save.run(productBody(values, current?.id)))) setEditing(null);
        }}
        destroyOnHidden
      >
        {current ? (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            message={`${current.total} NADI pledged in ${current.active_positions} active positions (${current.positions} ever).`}
            description="A new day rate or term applies to new joins only: a position keeps the rate it joined at. A joint budget is shared anew at each settlement. The kind is fixed once anyone joined."
          />
        ) : null}
        <Form form={form} layout="vertical" preserve={false} initialValues={initial}>
          <Row gutter={16}>
            <Col span={10}>
              <Form.Item name="kind" label="Kind" rules={[{ required: true }]}>
                <Select
                  disabled={current !== null && current.positions > 0}
                  options={pledgeKinds.map((k) => ({ value: k, label: kindLabels[k] }))}
                  onChange={(k: PledgeKind) => form.setFieldsValue({ term_epochs: k === 'locked' ? 30 : 0 })}
                />
              </Form.Item>
            </Col>
            <Col span={14}>
              <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true, max: 40 }]}>
                <Input maxLength={40} />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={16}>
            {kind === 'locked' ? (
              <Col span={10}>
                <Form.Item name="term_epochs" label="Term (epochs)" rules={[{ required: true, type: 'integer', min: 1, max: termEpochsMax }]}>
                  <InputNumber style={{ width: '100%' }} precision={0} />
                </Form.Item>
              </Col>
            ) : null}
            {kind === 'joint' ? (
              <Col span={14}>
                <Form.Item name="epoch_budget" label="Interest budget per epoch (NADI)" rules={[{ required: true, message: 'Required' }, amountRule()]}>
                  <Input inputMode="decimal" />
                </Form.Item>
              </Col>
            ) : (
              <Col span={14}>
                <Form.Item
                  name="day_rate"
                  label="Day rate (% per epoch, up to 4 decimals)"
                  extra="Stored exactly as parts per million: 0.03 % = 300 ppm."
                  rules={[
                    { required: true, message: 'Required' },
                    {
                      validator: async (_rule, value: string | undefined) => {
                        const ppm = percentToPpm(value ?? '');
                        if (ppm === null) throw new Error('A percent like 0.03, at most 4 decimals');
                        if (ppm > dayRatePpmMax) throw new Error(`At most ${ppmToPercent(dayRatePpmMax)} % a day`);
                      },
                    },
                  ]}
                >
                  <Input inputMode="decimal" suffix="%" />
                </Form.Item>
              </Col>
            )}
          </Row>
          <Row gutter={16}>
            <Col span={10}>
              <Form.Item name="min_pledge" label="Minimum pledge (NADI)" rules={[{ required: true, message: 'Required' }, amountRule()]}>
                <Input inputMode="decimal" />
              </Form.Item>
            </Col>
            <Col span={14}>
              <Form.Item
                name="pool_cap"
                label="Pool cap (NADI)"
                dependencies={['min_pledge']}
                rules={[
                  { required: true, message: 'Required' },
                  amountRule(),
                  ({ getFieldValue }) => ({
                    validator: async (_rule, value: string | undefined) => {
                      const min = getFieldValue('min_pledge') as string | undefined;
                      if (value && min && compareAmounts(value, min) < 0) throw new Error('At least the minimum pledge');
                      if (value && current && compareAmounts(value, current.total) < 0) throw new Error(`At least what is pledged now (${current.total})`);
                    },
                  }),
                ]}
              >
                <Input inputMode="decimal" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item
            name="window"
            label="Open to join from – until"
            rules={[
              { required: true, type: 'array' },
              {
                validator: async (_rule, value: [Dayjs, Dayjs] | undefined) => {
                  if (value && !value[1].isAfter(value[0])) throw new Error('The end is after the start');
                },
              },
            ]}
          >
            <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
          </Form.Item>
          <Row gutter={16}>
            <Col span={10}>
              <Form.Item name="sort" label="Sort (lower first)" rules={[{ required: true, type: 'integer', min: 0, max: 10_000 }]}>
                <InputNumber style={{ width: '100%' }} precision={0} />
              </Form.Item>
            </Col>
            <Col span={14}>
              <Form.Item name="is_enabled" label="Enabled (users can see and join it in its window)" valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
          </Row>
        </Form>
      </Modal>
    </List>
  );
}
