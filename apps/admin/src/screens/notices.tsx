import type { Lang } from '@nadi/api/common';
import {
  noticeContentLengthMax,
  noticeStatuses,
  noticeTextFor,
  noticeTitleLengthMax,
  type NoticeStatus,
  type NoticeTranslations,
  type OperatorNotice,
} from '@nadi/api/notice';
import { List, useTable } from '@refinedev/antd';
import { Alert, Button, DatePicker, Drawer, Form, Input, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useAction } from '../lib/use-action.ts';
import { actions } from '../providers/data-provider.ts';
import { DateTime } from './format.tsx';
import { LanguageTabs, langOfError, MissingLangs, tabLangs } from './language-tabs.tsx';
import { ReasonModal } from './reason-modal.tsx';
import { StatusFilter } from './status-filter.tsx';

const statusColors: Record<NoticeStatus, string> = { draft: 'default', scheduled: 'blue', published: 'green', withdrawn: 'red' };
const fallbackRule = 'the English text (else TW, else the first language written)';

interface NoticeForm {
  translations: Partial<Record<Lang, { title?: string; content?: string }>>;
  publish_at?: Dayjs | null;
}

/** The languages with a title or a content typed in. */
function filledLangs(translations: NoticeForm['translations'] | undefined): Lang[] {
  return tabLangs.filter((lang) => (translations?.[lang]?.title ?? '').trim() !== '' || (translations?.[lang]?.content ?? '').trim() !== '');
}

/** The form's languages as the contract's translations: the filled ones, trimmed; the empty ones left out (they fall back). */
function toTranslations(translations: NoticeForm['translations']): NoticeTranslations {
  const out: NoticeTranslations = {};
  for (const lang of filledLangs(translations)) {
    out[lang] = { title: (translations[lang]?.title ?? '').trim(), content: (translations[lang]?.content ?? '').trim() };
  }
  return out;
}

function titleOf(notice: OperatorNotice): string {
  return noticeTextFor(notice.translations, 'EN')?.title ?? '';
}

/** A notice's editable state: drafts and scheduled notices change; published and withdrawn ones are read only. */
function isEditable(notice: OperatorNotice | null): boolean {
  return notice === null || notice.status === 'draft' || notice.status === 'scheduled';
}

export function NoticesScreen() {
  const { tableProps, setFilters, filters } = useTable<OperatorNotice>({ resource: 'notices', syncWithLocation: false });
  const save = useAction(actions.saveNotice, 'notices', 'Notice saved');
  const publish = useAction(actions.publishNotice, 'notices', 'Notice published');
  const withdraw = useAction(actions.withdrawNotice, 'notices', 'Notice withdrawn');
  const [form] = Form.useForm<NoticeForm>();
  const translations = Form.useWatch('translations', form);
  const publishAt = Form.useWatch('publish_at', form);
  /** The drawer: closed (undefined), a new notice (null) or an existing one. */
  const [editing, setEditing] = useState<OperatorNotice | null | undefined>(undefined);
  const [withdrawing, setWithdrawing] = useState<OperatorNotice | null>(null);
  const [tab, setTab] = useState<Lang>('EN');
  const editable = isEditable(editing ?? null) && save.allowed;

  const open = (notice: OperatorNotice | null) => {
    form.resetFields();
    form.setFieldsValue({
      translations: Object.fromEntries(tabLangs.map((lang) => [lang, notice?.translations[lang] ?? { title: '', content: '' }])),
      publish_at: notice?.status === 'scheduled' && notice.publish_at ? dayjs(notice.publish_at) : null,
    });
    setTab('EN');
    setEditing(notice);
  };
  const close = () => setEditing(undefined);

  /** Runs an action of the drawer; it closes only on success (a failure shows the server's message and keeps the text). */
  const attempt = async (action: () => Promise<void>) => {
    try {
      await action();
      close();
    } catch (error) {
      // Validation marks the fields (their tab is opened); the server's refusal is in the notification.
      const lang = langOfError(error, 'translations');
      if (lang) setTab(lang);
    }
  };

  const onSave = () =>
    attempt(async () => {
      const values = await form.validateFields();
      await save.run({
        ...(editing ? { id: editing.id } : {}),
        translations: toTranslations(values.translations),
        publish_at: values.publish_at ? values.publish_at.toISOString() : null,
      });
    });

  const onPublish = () =>
    attempt(async () => {
      const values = await form.validateFields([['translations']], { recursive: true });
      const text = toTranslations(values.translations);
      if (!editing) {
        await publish.run({ translations: text });
        return;
      }
      // A saved notice publishes by id; changed text is saved first (as a draft, so a failed publish never leaves a stale schedule).
      if (form.isFieldsTouched()) await save.run({ id: editing.id, translations: text, publish_at: null });
      await publish.run({ id: editing.id });
    });

  const filled = filledLangs(translations);
  const textRules = (lang: Lang, field: 'title' | 'content', max: number) => [
    { max, message: `At most ${max} characters` },
    {
      validator: async (_: unknown, value: string | undefined) => {
        const other = form.getFieldValue(['translations', lang, field === 'title' ? 'content' : 'title']) as string | undefined;
        if (lang === 'EN' && field === 'title' && filledLangs(form.getFieldValue('translations') as NoticeForm['translations']).length === 0) {
          throw new Error('Write the title and content in at least one language');
        }
        if ((value ?? '').trim() === '' && (other ?? '').trim() !== '')
          throw new Error(`${field === 'title' ? 'Title' : 'Content'} is required when the ${field === 'title' ? 'content' : 'title'} is written`);
      },
    },
  ];

  return (
    <List
      title="Notices"
      headerButtons={
        <Space>
          <StatusFilter filters={filters} setFilters={setFilters} options={noticeStatuses.map((s) => ({ value: s, label: s }))} />
          {save.allowed || publish.allowed ? (
            <Button type="primary" onClick={() => open(null)}>
              New notice
            </Button>
          ) : null}
        </Space>
      }
    >
      <Table {...tableProps} rowKey="id" size="middle">
        <Table.Column dataIndex="id" title="ID" />
        <Table.Column
          key="title"
          title="Title"
          render={(_, r: OperatorNotice) => (
            <Typography.Link onClick={() => open(r)} style={{ maxWidth: 360, display: 'inline-block' }} ellipsis>
              {titleOf(r)}
            </Typography.Link>
          )}
        />
        <Table.Column dataIndex="status" title="Status" render={(v: NoticeStatus) => <Tag color={statusColors[v]}>{v}</Tag>} />
        <Table.Column dataIndex="missing_langs" title="Missing languages" render={(v: Lang[]) => <MissingLangs value={v} />} />
        <Table.Column dataIndex="publish_at" title="Publish at" render={(v: string | null) => <DateTime value={v} />} />
        <Table.Column dataIndex="pushed_at" title="Pushed" render={(v: string | null) => <DateTime value={v} />} />
        <Table.Column
          dataIndex="withdrawn_at"
          title="Withdrawn"
          render={(v: string | null, r: OperatorNotice) =>
            v ? (
              <Space direction="vertical" size={0}>
                <DateTime value={v} />
                <small>{r.withdraw_reason}</small>
              </Space>
            ) : (
              '—'
            )
          }
        />
        <Table.Column
          key="actions"
          title="Actions"
          render={(_, r: OperatorNotice) => (
            <Space>
              <Button size="small" onClick={() => open(r)}>
                {isEditable(r) && save.allowed ? 'Edit' : 'View'}
              </Button>
              {withdraw.allowed && (r.status === 'published' || r.status === 'scheduled') ? (
                <Button danger size="small" onClick={() => setWithdrawing(r)}>
                  Withdraw
                </Button>
              ) : null}
            </Space>
          )}
        />
      </Table>
      <Drawer
        open={editing !== undefined}
        width={900}
        title={editing ? `Notice #${editing.id} · ${editing.status}` : 'New notice'}
        onClose={close}
        destroyOnHidden={false}
        extra={
          editable ? (
            <Space>
              {save.allowed ? (
                <Button onClick={onSave} loading={save.isPending}>
                  {publishAt ? 'Save scheduled' : 'Save draft'}
                </Button>
              ) : null}
              {publish.allowed ? (
                <Popconfirm
                  title="Publish this notice now?"
                  description="Every phone lists it at once and signed-in users get it pushed."
                  okText="Publish"
                  onConfirm={onPublish}
                >
                  <Button type="primary" loading={publish.isPending}>
                    Publish now
                  </Button>
                </Popconfirm>
              ) : null}
            </Space>
          ) : null
        }
      >
        {editing && !isEditable(editing) ? (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            message={
              editing.status === 'withdrawn' ? `Withdrawn: ${editing.withdraw_reason ?? ''}` : 'Published notices cannot be changed; withdraw it instead.'
            }
          />
        ) : null}
        <Form form={form} name="notice" layout="vertical" disabled={!editable}>
          <LanguageTabs
            filled={filled}
            fallback={fallbackRule}
            active={tab}
            onActive={setTab}
            render={(lang) => (
              <>
                <Form.Item
                  name={['translations', lang, 'title']}
                  label="Title"
                  rules={textRules(lang, 'title', noticeTitleLengthMax)}
                  dependencies={[['translations', lang, 'content']]}
                >
                  <Input maxLength={noticeTitleLengthMax} showCount />
                </Form.Item>
                <Form.Item
                  name={['translations', lang, 'content']}
                  label="Content"
                  rules={textRules(lang, 'content', noticeContentLengthMax)}
                  dependencies={[['translations', lang, 'title']]}
                >
                  <Input.TextArea rows={12} maxLength={noticeContentLengthMax} showCount />
                </Form.Item>
              </>
            )}
          />
          <Form.Item
            name="publish_at"
            hidden={!editable}
            label="Schedule (optional: phones see it from then on, and it is pushed then)"
            rules={[
              {
                validator: async (_: unknown, value: Dayjs | null | undefined) => {
                  if (value && !value.isAfter(dayjs())) throw new Error('The time must be in the future');
                },
              },
            ]}
          >
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
          </Form.Item>
        </Form>
      </Drawer>
      <ReasonModal
        open={withdrawing !== null}
        title={`Withdraw notice #${withdrawing?.id ?? ''}`}
        okText="Withdraw"
        label="Reason (kept in the audit trail)"
        maxLength={500}
        pending={withdraw.isPending}
        onCancel={() => setWithdrawing(null)}
        onSubmit={async (reason) => {
          if (!withdrawing) return;
          await withdraw.run({ id: withdrawing.id, reason });
          setWithdrawing(null);
        }}
      >
        <p>
          “{withdrawing ? titleOf(withdrawing) : ''}”: phones no longer list or open it
          {withdrawing?.status === 'scheduled' ? ', and it is never pushed' : ''}.
        </p>
      </ReasonModal>
    </List>
  );
}
