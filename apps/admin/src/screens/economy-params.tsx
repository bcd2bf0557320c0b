import { economyParamNames } from '@nadi/api/mining';
import { List, useTable } from '@refinedev/antd';
import { Button, Form, Input, InputNumber, Modal, Select, Table, Tag } from 'antd';
import { useState } from 'react';
import { paramReading } from '../lib/param-units.ts';
import { submitForm, useAction } from '../lib/use-action.ts';
import { actions } from '../providers/data-provider.ts';

interface ParamRow {
  id: string;
  name: string;
  value: string;
  effective_epoch: number;
  state: 'in_force' | 'scheduled';
  epoch: number;
}
interface ParamForm {
  name: string;
  value: string;
  effective_epoch: number;
  reason: string;
}

export function EconomyParamsScreen() {
  const { tableProps } = useTable<ParamRow>({ resource: 'economy-params', syncWithLocation: false, pagination: { mode: 'client', pageSize: 50 } });
  const setParam = useAction(actions.setParam, 'economy-params', 'Parameter change scheduled');
  const [isOpen, setOpen] = useState(false);
  const [form] = Form.useForm<ParamForm>();
  const epoch = (tableProps.dataSource as ParamRow[] | undefined)?.[0]?.epoch;

  const open = (row?: ParamRow) => {
    form.setFieldsValue({ name: row?.name, value: row?.value, effective_epoch: epoch === undefined ? undefined : epoch + 1, reason: '' });
    setOpen(true);
  };

  return (
    <List
      title={`Economy parameters${epoch === undefined ? '' : ` · current epoch ${epoch}`}`}
      headerButtons={
        setParam.allowed ? (
          <Button type="primary" onClick={() => open()}>
            Change a parameter
          </Button>
        ) : null
      }
    >
      <Table {...tableProps} rowKey="id" size="small">
        <Table.Column dataIndex="name" title="Parameter" />
        <Table.Column
          dataIndex="value"
          title="Stored value"
          align="right"
          render={(v: string) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>{v}</span>}
        />
        <Table.Column key="reading" title="Reads as" align="right" render={(_, r: ParamRow) => <strong>{paramReading(r.name, r.value)}</strong>} />
        <Table.Column dataIndex="effective_epoch" title="From epoch" align="right" />
        <Table.Column
          dataIndex="state"
          title="State"
          render={(v: string) => (v === 'scheduled' ? <Tag color="blue">scheduled</Tag> : <Tag color="green">in force</Tag>)}
        />
        {setParam.allowed ? (
          <Table.Column
            key="actions"
            title="Actions"
            render={(_, r: ParamRow) =>
              r.state === 'in_force' ? (
                <Button size="small" onClick={() => open(r)}>
                  Change…
                </Button>
              ) : null
            }
          />
        ) : null}
      </Table>
      <Modal
        open={isOpen}
        title="Change an economy parameter"
        okText="Schedule the change"
        okButtonProps={{ loading: setParam.isPending }}
        onCancel={() => setOpen(false)}
        onOk={async () => {
          if (await submitForm(form, (values) => setParam.run({ ...values }))) setOpen(false);
        }}
      >
        <p>A change takes effect from a later epoch on; a settled epoch never changes.</p>
        <Form form={form} layout="vertical">
          <Form.Item name="name" label="Parameter" rules={[{ required: true }]}>
            <Select showSearch options={economyParamNames.map((n) => ({ value: n, label: n }))} />
          </Form.Item>
          <Form.Item noStyle shouldUpdate={(a: ParamForm, b: ParamForm) => a.name !== b.name || a.value !== b.value}>
            {() => {
              const reading = paramReading(form.getFieldValue('name') ?? '', form.getFieldValue('value') ?? '');
              return (
                <Form.Item
                  name="value"
                  label="New value (a whole number, in the parameter's unit)"
                  extra={reading ? `Reads as ${reading}` : 'Base units of 18 decimals, basis points, centi-power, epochs or seconds'}
                  rules={[{ required: true, pattern: /^(0|[1-9][0-9]{0,29})$/, message: 'A whole number' }]}
                >
                  <Input inputMode="numeric" />
                </Form.Item>
              );
            }}
          </Form.Item>
          <Form.Item
            name="effective_epoch"
            label="Effective from epoch"
            rules={[{ required: true, type: 'integer', min: epoch === undefined ? 1 : epoch + 1, message: 'An epoch after the current one' }]}
          >
            <InputNumber style={{ width: '100%' }} precision={0} />
          </Form.Item>
          <Form.Item name="reason" label="Reason (kept in the audit trail)" rules={[{ required: true, whitespace: true, max: 500 }]}>
            <Input.TextArea rows={3} maxLength={500} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </List>
  );
}
