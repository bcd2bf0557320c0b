import type { Lang } from '@nadi/api/common';
import { deviceRoutes } from '@nadi/api/mining';
import { orderQuantityMax, storeImageKeys, storeSpecKeys, type OperatorProductItem, type StoreSpecKey } from '@nadi/api/store';
import { parseAmount } from '@nadi/money/money';
import { List, useTable } from '@refinedev/antd';
import { useQuery } from '@tanstack/react-query';
import { Button, Col, Drawer, Form, Input, InputNumber, Modal, Row, Select, Space, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { callRoute } from '../lib/api.ts';
import { submitForm, useAction } from '../lib/use-action.ts';
import { actions } from '../providers/data-provider.ts';
import { Amount } from './format.tsx';
import { LanguageTabs, langOfError, tabLangs } from './language-tabs.tsx';

/** Limits of the contract's productBody (packages/api/src/store.ts). */
const nameLengthMax = 80;
const summaryLengthMax = 500;
const specValueLengthMax = 80;
const sortMax = 10_000;

interface ProductForm {
  model_code: string;
  name: string;
  image: string;
  price_usdt: string;
  per_order_max: number;
  is_on_sale: boolean;
  sort: number;
  specs: { key?: StoreSpecKey; value?: string }[];
  summary: Partial<Record<Lang, string>>;
}

const priceMessages: Record<string, string> = {
  EMPTY: 'Please enter the price',
  FORMAT: 'A decimal number, e.g. 499 or 499.5',
  TOO_MANY_DECIMALS: 'At most 18 decimals',
  TOO_LARGE: 'Too large',
  NEGATIVE: 'Must be more than 0',
  ZERO: 'Must be more than 0',
};

function filledSummaries(summary: ProductForm['summary'] | undefined): Lang[] {
  return tabLangs.filter((lang) => (summary?.[lang] ?? '').trim() !== '');
}

export function ProductsScreen() {
  const { tableProps } = useTable<OperatorProductItem>({ resource: 'products', syncWithLocation: false, pagination: { pageSize: 20 } });
  const stock = useAction(actions.stock, 'products', 'Stock changed');
  const save = useAction(actions.saveProduct, 'products', 'Product saved');
  const [changing, setChanging] = useState<OperatorProductItem | null>(null);
  const [form] = Form.useForm<{ delta: number }>();
  /** The editor: closed (undefined), a new product (null) or an existing one. */
  const [editing, setEditing] = useState<OperatorProductItem | null | undefined>(undefined);
  const [tab, setTab] = useState<Lang>('EN');
  const [productForm] = Form.useForm<ProductForm>();
  const summary = Form.useWatch('summary', productForm);
  const specs = Form.useWatch('specs', productForm);
  const models = useQuery({
    queryKey: ['operator', 'device-models'],
    queryFn: () => callRoute(deviceRoutes.operatorModels),
    enabled: editing !== undefined,
  });

  const openEditor = (product: OperatorProductItem | null) => {
    productForm.resetFields();
    productForm.setFieldsValue(
      product
        ? {
            model_code: product.model_code,
            name: product.name,
            image: product.image,
            price_usdt: product.price_usdt,
            per_order_max: product.per_order_max,
            is_on_sale: product.is_on_sale,
            sort: product.sort,
            specs: product.specs,
            summary: product.summaries,
          }
        : { per_order_max: 5, is_on_sale: false, sort: 0, specs: [], summary: {} },
    );
    setTab('EN');
    setEditing(product);
  };

  const onSave = async () => {
    try {
      const values = await productForm.validateFields();
      // Empty languages are left out: their readers see the English summary.
      const summaries = Object.fromEntries(filledSummaries(values.summary).map((lang) => [lang, (values.summary[lang] ?? '').trim()]));
      await save.run({
        ...(editing ? { id: editing.id } : {}),
        model_code: values.model_code,
        name: values.name.trim(),
        image: values.image,
        summary: summaries,
        specs: values.specs.map((s) => ({ key: s.key, value: (s.value ?? '').trim() })),
        price_usdt: values.price_usdt.trim(),
        per_order_max: values.per_order_max,
        is_on_sale: values.is_on_sale,
        sort: values.sort,
      });
      setEditing(undefined);
    } catch (error) {
      // Validation marks the fields (a summary's tab is opened); the server's refusal is in the notification.
      const lang = langOfError(error, 'summary');
      if (lang) setTab(lang);
    }
  };

  const usedSpecKeys = new Set((specs ?? []).map((s) => s?.key).filter(Boolean));

  return (
    <List
      title="Products"
      headerButtons={
        save.allowed ? (
          <Button type="primary" onClick={() => openEditor(null)}>
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
          render={(v: string, r: OperatorProductItem) => (
            <Space direction="vertical" size={0}>
              {v}
              <small>
                {r.model_code} · {r.image}
              </small>
            </Space>
          )}
        />
        <Table.Column dataIndex="price_usdt" title="Price (USDT)" align="right" render={(v: string) => <Amount value={v} />} />
        <Table.Column dataIndex="base_power" title="Power" align="right" render={(v: string, r: OperatorProductItem) => `${v} + ${r.gift_power}`} />
        <Table.Column dataIndex="stock" title="Stock" align="right" />
        <Table.Column dataIndex="sold" title="Sold" align="right" />
        <Table.Column dataIndex="per_order_max" title="Per order" align="right" />
        <Table.Column dataIndex="sort" title="Sort" align="right" />
        <Table.Column
          dataIndex="summaries"
          title="Summary languages"
          render={(v: OperatorProductItem['summaries']) => {
            const missing = tabLangs.filter((lang) => v[lang] === '');
            return missing.length === 0 ? <Tag color="green">all ten</Tag> : <small>{`${10 - missing.length}/10 · missing ${missing.join(' ')}`}</small>;
          }}
        />
        <Table.Column dataIndex="is_on_sale" title="On sale" render={(v: boolean) => (v ? <Tag color="green">on sale</Tag> : <Tag>off</Tag>)} />
        <Table.Column
          key="actions"
          title="Actions"
          render={(_, r: OperatorProductItem) => (
            <Space>
              {save.allowed ? (
                <Button size="small" onClick={() => openEditor(r)}>
                  Edit
                </Button>
              ) : null}
              {stock.allowed ? (
                <Button size="small" onClick={() => setChanging(r)}>
                  Stock…
                </Button>
              ) : null}
            </Space>
          )}
        />
      </Table>
      <Drawer
        open={editing !== undefined}
        width={900}
        title={editing ? `Product #${editing.id} · ${editing.name}` : 'New product'}
        onClose={() => setEditing(undefined)}
        extra={
          <Button type="primary" onClick={() => void onSave()} loading={save.isPending}>
            Save
          </Button>
        }
      >
        <Form form={productForm} name="product" layout="vertical">
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true }, { max: nameLengthMax }]}>
                <Input maxLength={nameLengthMax} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="model_code" label="Device model" rules={[{ required: true }]}>
                <Select
                  loading={models.isLoading}
                  options={(models.data ?? []).map((m) => ({ value: m.code, label: `${m.code} · ${m.name} (power ${m.base_power} + ${m.gift_power})` }))}
                />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={16}>
            <Col span={6}>
              <Form.Item
                name="price_usdt"
                label="Price (USDT)"
                required
                rules={[
                  {
                    validator: async (_: unknown, value: string | undefined) => {
                      const parsed = parseAmount((value ?? '').trim());
                      if (!parsed.ok) throw new Error(priceMessages[parsed.error] ?? parsed.error);
                    },
                  },
                ]}
              >
                <Input inputMode="decimal" placeholder="499.00" />
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item name="per_order_max" label="Per order (max)" rules={[{ required: true, type: 'integer', min: 1, max: orderQuantityMax }]}>
                <InputNumber precision={0} min={1} max={orderQuantityMax} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item name="sort" label="Sort (low first)" rules={[{ required: true, type: 'integer', min: 0, max: sortMax }]}>
                <InputNumber precision={0} min={0} max={sortMax} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item name="is_on_sale" label="On sale" valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="image" label="Image (shipped with the app)" rules={[{ required: true }]}>
            <Select style={{ width: 280 }} options={storeImageKeys.map((key) => ({ value: key, label: key }))} />
          </Form.Item>
          <Form.Item label="Specifications">
            <Form.List name="specs">
              {(fields, { add, remove }) => (
                <>
                  {fields.map((field) => (
                    <Space key={field.key} align="baseline" style={{ display: 'flex' }}>
                      <Form.Item name={[field.name, 'key']} rules={[{ required: true, message: 'Pick a key' }]}>
                        <Select
                          style={{ width: 200 }}
                          placeholder="Key"
                          options={storeSpecKeys.map((key) => ({ value: key, label: key, disabled: usedSpecKeys.has(key) }))}
                        />
                      </Form.Item>
                      <Form.Item
                        name={[field.name, 'value']}
                        rules={[{ required: true, whitespace: true, message: 'Enter the value' }, { max: specValueLengthMax }]}
                      >
                        <Input style={{ width: 360 }} placeholder="Value, e.g. 16 GB" maxLength={specValueLengthMax} />
                      </Form.Item>
                      <Button size="small" onClick={() => remove(field.name)}>
                        Remove
                      </Button>
                    </Space>
                  ))}
                  {fields.length < storeSpecKeys.length ? (
                    <Button size="small" onClick={() => add({ value: '' })}>
                      Add a line
                    </Button>
                  ) : null}
                </>
              )}
            </Form.List>
          </Form.Item>
          <LanguageTabs
            filled={filledSummaries(summary)}
            fallback="the English summary (none if English is empty)"
            active={tab}
            onActive={setTab}
            render={(lang) => (
              <Form.Item name={['summary', lang]} label="Summary" rules={[{ max: summaryLengthMax }]}>
                <Input.TextArea rows={4} maxLength={summaryLengthMax} showCount />
              </Form.Item>
            )}
          />
        </Form>
      </Drawer>
      <Modal
        open={changing !== null}
        title={`Stock of ${changing?.name ?? ''} (now ${changing?.stock ?? 0})`}
        okText="Change stock"
        okButtonProps={{ loading: stock.isPending }}
        onCancel={() => setChanging(null)}
        onOk={async () => {
          if (!changing || !(await submitForm(form, ({ delta }) => stock.run({ product_id: changing.id, delta })))) return;
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
