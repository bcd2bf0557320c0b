import type { RouteData } from '@nadi/api/route';
import { storeOrderStatuses, type storeRoutes } from '@nadi/api/store';
import { List, useTable } from '@refinedev/antd';
import { Button, Form, Input, Modal, Space, Table } from 'antd';
import { useState } from 'react';
import { submitForm, useAction } from '../lib/use-action.ts';
import { actions } from '../providers/data-provider.ts';
import { StatusFilter } from './status-filter.tsx';
import { Address, Amount, DateTime, Status } from './format.tsx';
import { ReasonModal } from './reason-modal.tsx';

type Order = RouteData<typeof storeRoutes.operatorOrders>['list'][number];
interface ShipForm {
  courier_company: string;
  courier_number: string;
  devices: { serial: string; code: string }[];
}

export function OrdersScreen() {
  const { tableProps, setFilters, filters } = useTable<Order>({
    resource: 'orders',
    filters: { initial: [{ field: 'status', operator: 'eq', value: 'to_ship' }] },
    syncWithLocation: false,
  });
  const ship = useAction(actions.ship, 'orders', 'Order shipped');
  const refund = useAction(actions.refund, 'orders', 'Order refunded');
  const [shipping, setShipping] = useState<Order | null>(null);
  const [refunding, setRefunding] = useState<Order | null>(null);
  const [shipForm] = Form.useForm<ShipForm>();

  const openShip = (order: Order) => {
    // One row per unit ordered: the serial of the device in the box and the code on its card.
    shipForm.setFieldsValue({ courier_company: '', courier_number: '', devices: Array.from({ length: order.item_count }, () => ({ serial: '', code: '' })) });
    setShipping(order);
  };

  return (
    <List
      title="Store orders"
      headerButtons={
        <StatusFilter filters={filters} setFilters={setFilters} options={storeOrderStatuses.map((s) => ({ value: s, label: s.replace('_', ' ') }))} />
      }
    >
      <Table {...tableProps} rowKey="id" size="middle">
        <Table.Column dataIndex="order_no" title="Order" />
        <Table.Column
          dataIndex="wallet_address"
          title="User"
          render={(v: string, r: Order) => (
            <Space>
              #{r.user_id}
              <Address value={v} />
            </Space>
          )}
        />
        <Table.Column dataIndex="items" title="Items" render={(items: Order['items']) => items.map((i) => `${i.quantity} × ${i.name}`).join(', ')} />
        <Table.Column dataIndex="total_usdt" title="Total (USDT)" align="right" render={(v: string) => <Amount value={v} />} />
        <Table.Column
          dataIndex="pay_amount"
          title="Paid"
          align="right"
          render={(v: string, r: Order) => <Amount value={v} unit={`${r.pay_asset} · ${r.pay_method}`} />}
        />
        <Table.Column dataIndex="status" title="Status" render={(v: string) => <Status value={v} />} />
        <Table.Column
          dataIndex="address"
          title="Ship to"
          render={(a: Order['address']) => (
            <small>
              {a.receiver_name} · {a.phone}
              <br />
              {a.area} {a.detail}
            </small>
          )}
        />
        <Table.Column dataIndex="created_at" title="Ordered" render={(v: string) => <DateTime value={v} />} />
        <Table.Column
          key="actions"
          title={ship.allowed || refund.allowed ? 'Actions' : 'Shipment'}
          render={(_, r: Order) =>
            r.status === 'to_ship' ? (
              <Space>
                {ship.allowed ? (
                  <Button type="primary" size="small" onClick={() => openShip(r)}>
                    Ship
                  </Button>
                ) : null}
                {refund.allowed ? (
                  <Button danger size="small" onClick={() => setRefunding(r)}>
                    Refund
                  </Button>
                ) : null}
              </Space>
            ) : r.courier_company ? (
              <small>
                {r.courier_company} {r.courier_number}
              </small>
            ) : null
          }
        />
      </Table>
      <Modal
        open={shipping !== null}
        width={640}
        title={`Ship order ${shipping?.order_no ?? ''}`}
        okText="Ship"
        okButtonProps={{ loading: ship.isPending }}
        onCancel={() => setShipping(null)}
        onOk={async () => {
          // A refusal (a wrong serial or code) is shown by the notification; the dialog stays to correct it.
          if (shipping && (await submitForm(shipForm, (values) => ship.run({ id: shipping.id, ...values })))) setShipping(null);
        }}
      >
        <Form form={shipForm} layout="vertical">
          <div style={{ display: 'flex', gap: 12 }}>
            <Form.Item name="courier_company" label="Courier" rules={[{ required: true, whitespace: true, max: 60 }]} style={{ flex: 1 }}>
              <Input />
            </Form.Item>
            <Form.Item name="courier_number" label="Tracking number" rules={[{ required: true, whitespace: true, max: 60 }]} style={{ flex: 1 }}>
              <Input />
            </Form.Item>
          </div>
          <Form.List name="devices">
            {(fields) =>
              fields.map((field, index) => (
                <Space key={field.key} align="baseline" style={{ display: 'flex' }}>
                  <Form.Item
                    name={[field.name, 'serial']}
                    label={index === 0 ? 'Device serial' : undefined}
                    rules={[{ required: true, whitespace: true, max: 64 }]}
                  >
                    <Input placeholder={`Unit ${index + 1} serial`} style={{ width: 260 }} />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'code']}
                    label={index === 0 ? 'Activation code' : undefined}
                    rules={[{ required: true, whitespace: true, max: 64 }]}
                  >
                    <Input placeholder="Code on its card" style={{ width: 260 }} />
                  </Form.Item>
                </Space>
              ))
            }
          </Form.List>
        </Form>
      </Modal>
      <ReasonModal
        open={refunding !== null}
        title={`Refund order ${refunding?.order_no ?? ''}`}
        okText="Refund"
        label="Reason (kept in the audit trail)"
        pending={refund.isPending}
        onCancel={() => setRefunding(null)}
        onSubmit={async (reason) => {
          if (!refunding) return;
          await refund.run({ id: refunding.id, reason });
          setRefunding(null);
        }}
      >
        <p>{refunding ? `${refunding.pay_amount} ${refunding.pay_asset}` : ''} returns to the account it was paid from (chain payments: the fund account).</p>
      </ReasonModal>
    </List>
  );
}
