import { Button, Form, Input, Modal, Popconfirm, Space } from 'antd';
import type { ReactNode } from 'react';
import { submitForm } from '../lib/use-action.ts';

/**
 * The one "do this, with a reason" dialog of the console (reject a withdrawal or a request, refund,
 * freeze, withdraw a notice, top up a pool…): the reason is required (not blank, at most `maxLength`),
 * `onSubmit` runs the action and the dialog closes only when it succeeded; the server checks the
 * reason again (REASON_REQUIRED).
 */
export function ReasonModal(props: {
  open: boolean;
  title: string;
  okText: string;
  label: string;
  danger?: boolean;
  pending?: boolean;
  maxLength?: number;
  children?: ReactNode;
  onCancel: () => void;
  onSubmit: (reason: string) => Promise<void>;
}) {
  const [form] = Form.useForm<{ reason: string }>();
  const maxLength = props.maxLength ?? 500;
  return (
    <Modal
      open={props.open}
      title={props.title}
      okText={props.okText}
      okButtonProps={{ danger: props.danger ?? true, loading: props.pending }}
      onCancel={props.onCancel}
      onOk={async () => {
        if (await submitForm(form, (values) => props.onSubmit(values.reason.trim()))) form.resetFields();
      }}
      destroyOnHidden
    >
      {props.children}
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="reason" label={props.label} rules={[{ required: true, whitespace: true, message: 'Please give a reason' }, { max: maxLength }]}>
          <Input.TextArea rows={3} maxLength={maxLength} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * The Approve (confirmed first) and Reject (opens the reason dialog) pair of a review queue, each shown
 * only to a role that may use it.
 */
export function ApproveReject(props: { confirm: string; canApprove: boolean; canReject: boolean; onApprove: () => Promise<unknown>; onReject: () => void }) {
  return (
    <Space>
      {props.canApprove ? (
        <Popconfirm title={props.confirm} onConfirm={() => props.onApprove().catch(() => undefined)}>
          <Button type="primary" size="small">
            Approve
          </Button>
        </Popconfirm>
      ) : null}
      {props.canReject ? (
        <Button danger size="small" onClick={props.onReject}>
          Reject
        </Button>
      ) : null}
    </Space>
  );
}
