/**
 * /arch/contacts: who gets a carrier's alarm notices (spec §3 Contact, §5: duplicate phones in
 * a group refused). Contacts are chosen on carriers and, later, in alarm triggers.
 */
import { useState } from 'react';
import { Form, Input, Radio, Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { contactApi, email, LOCALES, phone, type ContactLocale, type ContactRow } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { FormDialog, useRecordDialog } from '../../ui/FormDialog';
import { AddButton, linkActionsColumn, ListPage, useListRef, type ListColumn } from '../../ui';
import { matches, rules, serverFieldErrors, trimmed } from '../sys/formRules';

const LEVELS = [1, 2, 3] as const;
const LEVEL_COLORS: Record<number, string> = { 1: 'blue', 2: 'orange', 3: 'red' };
const FIELDS = ['name', 'gender', 'phone', 'email', 'alarmLevel', 'groupName', 'locale'];

interface Values {
  name: string;
  gender: 0 | 1;
  phone?: string;
  email?: string;
  alarmLevel: number;
  groupName?: string;
  /** '' in the form: the customer's language (null on the wire). */
  locale?: string | null;
}

function ContactDialog({ target, onClose, onDone }: { target: ContactRow | 'new' | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('contact');
  const { form, saving, save: saveTo } = useRecordDialog<ContactRow, Values>({
    target,
    t,
    // Spec §8 422 "mobile exists" answers a phone already in the group.
    errors: (e) => serverFieldErrors(e, FIELDS, { 422: 'phone' }),
    values: (r) => (r === 'new' ? { gender: 1, alarmLevel: 1, locale: '' } : { ...(r as Values), locale: r.locale ?? '' }),
    onDone,
    onClose,
  });
  const save = () =>
    saveTo({ ...contactApi, added: t('msg.added'), updated: t('msg.updated') }, (v) => ({
      name: trimmed(v.name),
      gender: v.gender,
      phone: trimmed(v.phone),
      email: trimmed(v.email),
      alarmLevel: v.alarmLevel,
      groupName: trimmed(v.groupName),
      locale: (v.locale || null) as ContactLocale['locale'],
    }));
  return (
    <FormDialog open={!!target} title={target === 'new' ? t('form.addTitle') : t('form.editTitle')} okText={t('form.ok')} cancelText={t('form.cancel')} saving={saving} onSubmit={save} onCancel={onClose} form={form} formName="contactForm">
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
      <Form.Item name="locale" label={t('form.locale')} extra={t('form.localeHelp')}>
        <Select options={[{ value: '', label: t('locale.customer') }, ...LOCALES.map((l) => ({ value: l, label: t(`locale.${l}`) }))]} />
      </Form.Item>
      <Form.Item name="groupName" label={t('form.group')} rules={rules(t, { max: 50 })} extra={t('form.groupHelp')}>
        <Input maxLength={50} />
      </Form.Item>
    </FormDialog>
  );
}

export default function ContactPage() {
  const { t } = useTranslation('contact');
  const { can, user } = useAuth();
  const list = useListRef();
  const [editing, setEditing] = useState<ContactRow | 'new' | null>(null);
  const del = useAction(contactApi.del, { success: t('msg.deleted'), onDone: list.reload });
  const orNone = (v: string) => v || '--';

  const columns: ListColumn<ContactRow>[] = [
    { title: t('col.name'), dataIndex: 'name', width: 140, search: { type: 'input', label: t('filter.name'), width: 140 } },
    { title: t('col.gender'), dataIndex: 'gender', width: 70, render: (g: number) => t(`gender.${g}`) },
    { title: t('col.phone'), dataIndex: 'phone', width: 140, render: orNone, search: { type: 'input', label: t('filter.phone'), width: 140 } },
    { title: t('col.email'), dataIndex: 'email', width: 200, ellipsis: true, render: orNone },
    { title: t('col.alarmLevel'), dataIndex: 'alarmLevel', width: 100, render: (l: number) => <Tag color={LEVEL_COLORS[l]}>{t(`level.${l}`)}</Tag> },
    { title: t('col.group'), dataIndex: 'groupName', width: 120, render: orNone, search: { type: 'input', label: t('filter.group'), width: 120 } },
    { title: t('col.carriers'), dataIndex: 'carrierCount', width: 90, align: 'right' },
    { title: t('col.customer'), dataIndex: 'customerName', width: 140, hidden: !seesManyCustomers(user?.userType) },
    linkActionsColumn<ContactRow>(
      {
        title: t('col.actions'),
        width: 140,
        items: [
          { key: 'edit', perm: 'editContact', label: t('action.edit'), onClick: setEditing },
          {
            key: 'delete',
            perm: 'removeContact',
            label: t('action.delete'),
            danger: true,
            confirm: (r) => ({ title: t('confirm.delete', { name: r.name, count: r.carrierCount }), okText: t('form.ok'), cancelText: t('form.cancel'), danger: true }),
            onClick: (r) => del.run({ query: { ids: idList([r.id]) } }),
          },
        ],
      },
      can,
    ),
  ];
  return (
    <ListPage
      ref={list.ref}
      route={contactApi.page}
      columns={columns}
      toolbar={
        <AddButton perm="newContact" onClick={() => setEditing('new')}>
          {t('action.add')}
        </AddButton>
      }
      empty={t('empty')}
      scrollX={1000}
    >
      <ContactDialog target={editing} onClose={() => setEditing(null)} onDone={list.reload} />
    </ListPage>
  );
}
