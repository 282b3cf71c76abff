/**
 * /arch/contacts: who gets a carrier's alarm notices (spec §3 Contact, §5: duplicate phones in
 * a group refused). Contacts are chosen on carriers and, later, in alarm triggers.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { App, Button, Form, Input, Popconfirm, Radio, Select, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { contactApi, email, phone, type ContactRow } from '@coldwatch/contract';
import { call, idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { PageCard, PagedTable, SearchBar, type PagedTableRef, type SearchField } from '../../ui';
import { matches, rules, serverFieldErrors, trimmed } from '../sys/formRules';

const LEVELS = [1, 2, 3] as const;
const LEVEL_COLORS: Record<number, string> = { 1: 'blue', 2: 'orange', 3: 'red' };
const FIELDS = ['name', 'gender', 'phone', 'email', 'alarmLevel', 'groupName'];

interface Values {
  name: string;
  gender: 0 | 1;
  phone?: string;
  email?: string;
  alarmLevel: number;
  groupName?: string;
}

function ContactDialog({ target, onClose, onDone }: { target: ContactRow | 'new' | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('contact');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  // Spec §8 422 "mobile exists" answers a phone already in the group.
  const { saving, submit } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, FIELDS, { 422: 'phone' }));
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue(target === 'new' ? { gender: 1, alarmLevel: 1 } : (target as Values));
  }, [target, form]);
  const save = () =>
    submit(async (v) => {
      const body = { name: trimmed(v.name), gender: v.gender, phone: trimmed(v.phone), email: trimmed(v.email), alarmLevel: v.alarmLevel, groupName: trimmed(v.groupName) };
      if (target === 'new') await call(contactApi.add, { body });
      else await call(contactApi.update, { body: { ...body, id: (target as ContactRow).id } });
      void message.success(target === 'new' ? t('msg.added') : t('msg.updated'));
      onDone();
      onClose();
    });
  return (
    <FormDialog open={!!target} title={target === 'new' ? t('form.addTitle') : t('form.editTitle')} okText={t('form.ok')} cancelText={t('form.cancel')} saving={saving} onSubmit={save} onCancel={onClose}>
      <Form form={form} name="contactForm" layout="vertical" requiredMark>
        <Form.Item name="name" label={t('form.name')} rules={rules(t, { required: true, max: 30 })}>
          <Input maxLength={30} />
        </Form.Item>
        <Form.Item name="gender" label={t('form.gender')}>
          <Radio.Group options={[{ value: 1, label: t('gender.1') }, { value: 0, label: t('gender.0') }]} />
        </Form.Item>
        <Form.Item name="phone" label={t('form.phone')} rules={[matches(phone, t('rule.phone'))]}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item name="email" label={t('form.email')} rules={[matches(email, t('rule.email'))]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="alarmLevel" label={t('form.alarmLevel')} extra={t('form.alarmLevelHelp')}>
          <Select options={LEVELS.map((l) => ({ value: l, label: t(`level.${l}`) }))} />
        </Form.Item>
        <Form.Item name="groupName" label={t('form.group')} rules={rules(t, { max: 50 })} extra={t('form.groupHelp')}>
          <Input maxLength={50} />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}

export default function ContactPage() {
  const { t } = useTranslation('contact');
  const { can, user } = useAuth();
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<{ name?: string; phone?: string; groupName?: string }>({});
  const [editing, setEditing] = useState<ContactRow | 'new' | null>(null);
  const params = useMemo(() => ({ ...filters }), [filters]);
  const reload = () => table.current?.reload();
  const del = useAction(contactApi.del, { success: t('msg.deleted'), onDone: reload });

  const columns: ColumnsType<ContactRow> = [
    { title: t('col.name'), dataIndex: 'name', width: 140 },
    { title: t('col.gender'), dataIndex: 'gender', width: 70, render: (g: number) => t(`gender.${g}`) },
    { title: t('col.phone'), dataIndex: 'phone', width: 140, render: (v: string) => v || '--' },
    { title: t('col.email'), dataIndex: 'email', width: 200, ellipsis: true, render: (v: string) => v || '--' },
    { title: t('col.alarmLevel'), dataIndex: 'alarmLevel', width: 100, render: (l: number) => <Tag color={LEVEL_COLORS[l]}>{t(`level.${l}`)}</Tag> },
    { title: t('col.group'), dataIndex: 'groupName', width: 120, render: (v: string) => v || '--' },
    { title: t('col.carriers'), dataIndex: 'carrierCount', width: 90, align: 'right' },
    ...(seesManyCustomers(user?.userType) ? [{ title: t('col.customer'), dataIndex: 'customerName', width: 140 }] : []),
    {
      title: t('col.actions'),
      key: 'actions',
      width: 140,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          {can('editContact') && (
            <Button type="link" size="small" onClick={() => setEditing(r)}>
              {t('action.edit')}
            </Button>
          )}
          {can('removeContact') && (
            <Popconfirm title={t('confirm.delete', { name: r.name, count: r.carrierCount })} okText={t('form.ok')} cancelText={t('form.cancel')} okButtonProps={{ danger: true }} onConfirm={() => del.run({ query: { ids: idList([r.id]) } })}>
              <Button type="link" size="small" danger>
                {t('action.delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  const fields: SearchField[] = [
    { name: 'name', type: 'input', label: t('filter.name'), width: 140 },
    { name: 'phone', type: 'input', label: t('filter.phone'), width: 140 },
    { name: 'groupName', type: 'input', label: t('filter.group'), width: 120 },
  ];
  return (
    <PageCard>
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16, flexWrap: 'wrap' }}>
        <div style={{ flex: 1, minWidth: 240 }}>
          <SearchBar fields={fields} onSearch={(v) => setFilters({ name: v.name as string, phone: v.phone as string, groupName: v.groupName as string })} />
        </div>
        {can('newContact') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('action.add')}
          </Button>
        )}
      </div>
      <PagedTable ref={table} route={contactApi.page} params={params} size="small" rowKey="id" columns={columns} locale={{ emptyText: t('empty') }} scroll={{ x: 1000 }} />
      <ContactDialog target={editing} onClose={() => setEditing(null)} onDone={reload} />
    </PageCard>
  );
}
