import type { OperatorCodeBatchItem, OperatorDeviceItem } from '@nadi/api/mining';
import { List, useTable } from '@refinedev/antd';
import { useDataProvider } from '@refinedev/core';
import { Alert, App, Button, DatePicker, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useAction } from '../lib/use-action.ts';
import { actions } from '../providers/data-provider.ts';
import { downloadText, parseSerials, serialsPerBatchMax } from './device-input.ts';
import { useModelOptions } from './devices.tsx';
import { Address, DateTime } from './format.tsx';

export function ActivationBatchesScreen() {
  const { tableProps } = useTable<OperatorCodeBatchItem>({ resource: 'activation-batches', syncWithLocation: false, pagination: { pageSize: 20 } });
  const generate = useAction(actions.generateCodes, 'activation-batches', 'Activation codes generated');
  const [isGenerating, setGenerating] = useState(false);
  // "Expired" against the time the screen opened: good enough for a list, and pure during render.
  const [openedAt] = useState(() => Date.now());

  return (
    <List
      title="Activation code batches"
      headerButtons={
        generate.allowed ? (
          <Button type="primary" onClick={() => setGenerating(true)}>
            Generate codes
          </Button>
        ) : null
      }
    >
      <Typography.Paragraph type="secondary">
        The server keeps only a hash of each code: a batch&apos;s codes are shown once, as the CSV offered when it is generated, and never again.
      </Typography.Paragraph>
      <Table {...tableProps} rowKey="id" size="middle">
        <Table.Column dataIndex="id" title="Batch" render={(v: number) => `#${v}`} />
        <Table.Column dataIndex="created_by" title="Created by" render={(v: string | null) => (v ? <Address value={v} /> : '—')} />
        <Table.Column dataIndex="created_at" title="Created at" render={(v: string) => <DateTime value={v} />} />
        <Table.Column dataIndex="count" title="Codes" align="right" />
        <Table.Column dataIndex="issued" title="Unused" align="right" />
        <Table.Column dataIndex="used" title="Used" align="right" />
        <Table.Column dataIndex="revoked" title="Revoked" align="right" />
        <Table.Column
          dataIndex="expires_at"
          title="Expires"
          render={(v: string | null) => (v === null ? <Tag>never</Tag> : Date.parse(v) <= openedAt ? <Tag color="red">expired</Tag> : <DateTime value={v} />)}
        />
      </Table>
      <GenerateCodesModal open={isGenerating} onClose={() => setGenerating(false)} generate={generate} />
    </List>
  );
}

interface BatchForm {
  serials: string;
  expires_at?: Dayjs | null;
}
interface Batch {
  batch_id: number;
  count: number;
  csv: string;
}

/**
 * Generate one code per device. The answer's CSV lives only in this dialog's state: it is offered
 * once as a download and is gone when the dialog closes.
 */
function GenerateCodesModal(props: {
  open: boolean;
  onClose: () => void;
  generate: { run: (values: Record<string, unknown>) => Promise<Batch>; isPending: boolean };
}) {
  const { modal, message } = App.useApp();
  const dataProvider = useDataProvider();
  const models = useModelOptions();
  const [form] = Form.useForm<BatchForm>();
  const text = Form.useWatch('serials', form) ?? '';
  const parsed = parseSerials(text);
  const [model, setModel] = useState<string | undefined>();
  const [isFilling, setFilling] = useState(false);
  const [batch, setBatch] = useState<Batch | null>(null);
  const [isDownloaded, setDownloaded] = useState(false);
  const filename = batch ? `activation-batch-${batch.batch_id}.csv` : '';

  const reset = () => {
    form.resetFields();
    setBatch(null);
    setDownloaded(false);
    props.onClose();
  };
  const close = () => {
    if (!batch || isDownloaded) return reset();
    modal.confirm({
      title: 'Close without downloading the codes?',
      content: `The ${batch.count} codes of batch #${batch.batch_id} are not kept anywhere and cannot be shown again. Their devices would need their codes revoked and a new batch.`,
      okText: 'Close and lose them',
      okButtonProps: { danger: true },
      cancelText: 'Back',
      onOk: reset,
    });
  };

  // Every unbound device of the model without a live code (none yet, or only a revoked one), page by page.
  const fill = async () => {
    if (!model) return;
    setFilling(true);
    try {
      const found: string[] = [];
      for (let page = 1; found.length < serialsPerBatchMax; page += 1) {
        const { data, total } = await dataProvider().getList<OperatorDeviceItem>({
          resource: 'devices',
          pagination: { currentPage: page, pageSize: 50 },
          filters: [
            { field: 'model', operator: 'eq', value: model },
            { field: 'status', operator: 'eq', value: 'unbound' },
            { field: 'code', operator: 'eq', value: 'without' },
          ],
        });
        found.push(...data.map((d) => d.serial));
        if (data.length === 0 || found.length >= total) break;
      }
      const merged = parseSerials(`${text}\n${found.join('\n')}`).items;
      form.setFieldValue('serials', [...new Set(merged)].join('\n'));
      void message.info(
        found.length === 0 ? `No unbound ${model} device is without a code.` : `${found.length} unbound ${model} devices without a code added.`,
      );
    } catch (error) {
      void message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setFilling(false);
    }
  };

  return (
    <Modal
      open={props.open}
      width={720}
      title={batch ? `Batch #${batch.batch_id}: ${batch.count} activation codes` : 'Generate activation codes'}
      maskClosable={false}
      onCancel={close}
      footer={
        batch ? (
          <Button onClick={close}>{isDownloaded ? 'Done' : 'Close'}</Button>
        ) : (
          <Space>
            <Button onClick={close}>Cancel</Button>
            <Button
              type="primary"
              loading={props.generate.isPending}
              disabled={parsed.items.length === 0 || parsed.errors.length > 0}
              onClick={async () => {
                const values = await form.validateFields();
                const result = await props.generate.run({
                  serials: parsed.items,
                  ...(values.expires_at ? { expires_at: values.expires_at.toDate().toISOString() } : {}),
                });
                setBatch(result);
              }}
            >
              {`Generate ${parsed.items.length} code${parsed.items.length === 1 ? '' : 's'}`}
            </Button>
          </Space>
        )
      }
    >
      {batch ? (
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          <Alert
            type="warning"
            showIcon
            message="Download the codes now: this is the only time they are shown"
            description="The server keeps only a hash of each code. Once this dialog is closed the CSV is gone; a lost code can only be revoked and replaced by a new batch. Keep the file somewhere safe and hand it to the packing team only."
          />
          <Button
            type="primary"
            size="large"
            onClick={() => {
              downloadText(filename, batch.csv);
              setDownloaded(true);
            }}
          >
            {`Download ${filename}`}
          </Button>
          {isDownloaded ? <Alert type="success" showIcon message={`${filename} downloaded (${batch.count} serial,code lines).`} /> : null}
        </Space>
      ) : (
        <Form form={form} layout="vertical">
          <Form.Item label="Add every unbound device of a model that has no live code">
            <Space.Compact>
              <Select value={model} onChange={setModel} options={models.options} placeholder="Model" style={{ width: 280 }} />
              <Button onClick={fill} loading={isFilling} disabled={!model}>
                Add their serials
              </Button>
            </Space.Compact>
          </Form.Item>
          <Form.Item
            name="serials"
            label={`Serials: one per line, or separated by commas or spaces (at most ${serialsPerBatchMax})`}
            rules={[{ required: true, message: 'Give at least one serial' }]}
            extra={`${parsed.items.length} serial${parsed.items.length === 1 ? '' : 's'}`}
          >
            <Input.TextArea rows={8} style={{ fontFamily: 'monospace' }} />
          </Form.Item>
          {parsed.errors.length > 0 ? (
            <Alert
              type="error"
              showIcon
              message="Fix these before generating"
              description={
                <ul style={{ margin: 0, paddingLeft: 18, maxHeight: 120, overflow: 'auto' }}>
                  {parsed.errors.slice(0, 50).map((e) => (
                    <li key={e}>{e}</li>
                  ))}
                </ul>
              }
            />
          ) : null}
          <Form.Item
            name="expires_at"
            label="Unused codes expire at (optional; empty: never)"
            rules={[
              {
                validator: async (_, v: Dayjs | null | undefined) => {
                  if (v && v.valueOf() <= Date.now()) throw new Error('The expiry must be in the future');
                },
              },
            ]}
          >
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" disabledDate={(d) => d.endOf('day').valueOf() < Date.now()} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
