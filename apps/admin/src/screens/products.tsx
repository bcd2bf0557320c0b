import type { ProductDetail } from '@nadi/api/store';
import { List, useTable } from '@refinedev/antd';
import { Button, Form, InputNumber, Modal, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useAction } from '../lib/use-action.ts';
import { actions } from '../providers/data-provider.ts';
import { Amount } from './format.tsx';

export function ProductsScreen() {
  const { tableProps } = useTable<ProductDetail>({ resource: 'products', syncWithLocation: false, pagination: { pageSize: 20 } });
  const stock = useAction(actions.stock, 'products', 'Stock changed');
  const [changing, setChanging] = useState<ProductDetail | null>(null);
  const [form] = Form.useForm<{ delta: number }>();

  return (
    <List title="Products">
      <Table {...tableProps} rowKey="id" size="middle">
        <Table.Column dataIndex="id" title="ID" />
        <Table.Column
          dataIndex="name"
          title="Name"
          render={(v: string, r: ProductDetail) => (
            <Space direction="vertical" size={0}>
              {v}
              <small>{r.model_code}</small>
            </Space>
          )}
        />
        <Table.Column dataIndex="price_usdt" title="Price (USDT)" align="right" render={(v: string) => <Amount value={v} />} />
        <Table.Column dataIndex="base_power" title="Power" align="right" render={(v: string, r: ProductDetail) => `${v} + ${r.gift_power}`} />
        <Table.Column dataIndex="stock" title="Stock" align="right" />
        <Table.Column dataIndex="sold" title="Sold" align="right" />
        <Table.Column dataIndex="per_order_max" title="Per order" align="right" />
        <Table.Column dataIndex="is_on_sale" title="On sale" render={(v: boolean) => (v ? <Tag color="green">on sale</Tag> : <Tag>off</Tag>)} />
        <Table.Column
          key="actions"
          title="Actions"
          render={(_, r: ProductDetail) =>
            stock.allowed ? (
              <Button size="small" onClick={() => setChanging(r)}>
                Stock…
              </Button>
            ) : null
          }
        />
      </Table>
      <Modal
        open={changing !== null}
        title={`Stock of ${changing?.name ?? ''} (now ${changing?.stock ?? 0})`}
        okText="Change stock"
        okButtonProps={{ loading: stock.isPending }}
        onCancel={() => setChanging(null)}
        onOk={async () => {
          const { delta } = await form.validateFields();
          if (!changing) return;
          await stock.run({ product_id: changing.id, delta });
          form.resetFields();
          setChanging(null);
        }}
      >
        <Form form={form} layout="vertical">
          <Form.Item name="delta" label="Add (negative: take away)" rules={[{ required: true, type: 'integer', min: -1_000_000, max: 1_000_000 }]}>
            <InputNumber style={{ width: '100%' }} precision={0} />
          </Form.Item>
        </Form>
      </Modal>
    </List>
  );
}
