/**
 * /sys/unitMeasurement: the units of measure (spec §3: unit, mark, number, description; types
 * string, number, decimal, time; §5 unit, mark and number required and unique). A platform
 * catalogue: customers choose from it for their monitoring ranges (/arch/detection).
 */
import { useState } from 'react';
import { Form, Input, Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { code, UNIT_VALUE_TYPES, unitApi, type UnitRow, type UnitValueType } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { FormDialog, useRecordDialog } from '../../ui/FormDialog';
import { AddButton, linkActionsColumn, ListPage, useListRef, type ListColumn } from '../../ui';
import { rules, serverFieldErrors, trimmed, zodRule } from '../sys/formRules';
import { unitName } from './unitLabels';

const FIELDS = ['unit', 'mark', 'number', 'valueType', 'description'];
const TYPE_COLORS: Record<UnitValueType, string> = { string: 'default', number: 'blue', decimal: 'geekblue', time: 'purple' };

interface Values {
  unit: string;
  mark: string;
  number: string;
  valueType: UnitValueType;
  description?: string;
}

function UnitDialog({ target, onClose, onDone }: { target: UnitRow | 'new' | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('unit');
  const { form, saving, save: saveTo } = useRecordDialog<UnitRow, Values>({
    target,
    t,
    errors: (e) => serverFieldErrors(e, FIELDS, {}),
    values: (r) => (r === 'new' ? { valueType: 'decimal' } : r),
    onDone,
    onClose,
  });
  const save = () =>
    saveTo({ ...unitApi, added: t('msg.added'), updated: t('msg.updated') }, (v) => ({
      unit: trimmed(v.unit),
      mark: trimmed(v.mark),
      number: trimmed(v.number),
      valueType: v.valueType,
      description: trimmed(v.description),
    }));
  return (
    <FormDialog open={!!target} title={target === 'new' ? t('form.addTitle') : t('form.editTitle')} okText={t('form.ok')} cancelText={t('form.cancel')} saving={saving} onSubmit={save} onCancel={onClose} form={form} formName="unitForm">
      <Form.Item name="unit" label={t('form.unit')} rules={rules(t, { required: true, max: 30 })}>
        <Input maxLength={30} />
      </Form.Item>
      <Form.Item name="mark" label={t('form.mark')} rules={rules(t, { required: true, max: 10 })} extra={t('form.markHelp')}>
        <Input maxLength={10} />
      </Form.Item>
      <Form.Item name="number" label={t('form.number')} rules={[zodRule(code(20), t)]} extra={t('form.numberHelp')}>
        <Input maxLength={20} />
      </Form.Item>
      <Form.Item name="valueType" label={t('form.valueType')}>
        <Select options={UNIT_VALUE_TYPES.map((v) => ({ value: v, label: t(`type.${v}`) }))} />
      </Form.Item>
      <Form.Item name="description" label={t('form.description')} rules={rules(t, { max: 250 })}>
        <Input.TextArea maxLength={250} rows={3} showCount />
      </Form.Item>
    </FormDialog>
  );
}

export default function UnitPage() {
  const { t } = useTranslation('unit');
  const { can } = useAuth();
  const list = useListRef();
  const [editing, setEditing] = useState<UnitRow | 'new' | null>(null);
  const del = useAction(unitApi.del, { success: t('msg.deleted'), onDone: list.reload, invalidates: [unitApi.list] });
  const inUse = (r: UnitRow) => r.rangeCount > 0;

  const columns: ListColumn<UnitRow>[] = [
    { title: t('col.unit'), key: 'unit', width: 160, render: (_, r) => unitName(t, r), search: { type: 'input', label: t('filter.unit'), width: 160 } },
    { title: t('col.mark'), dataIndex: 'mark', width: 90 },
    { title: t('col.number'), dataIndex: 'number', width: 110, render: (v: string) => <code>{v}</code> },
    {
      title: t('col.valueType'),
      dataIndex: 'valueType',
      width: 100,
      render: (v: UnitValueType) => <Tag color={TYPE_COLORS[v]}>{t(`type.${v}`)}</Tag>,
      search: { type: 'select', label: t('filter.valueType'), width: 120, options: UNIT_VALUE_TYPES.map((v) => ({ value: v, label: t(`type.${v}`) })) },
    },
    { title: t('col.description'), dataIndex: 'description', ellipsis: true, render: (v: string) => v || '--' },
    { title: t('col.ranges'), dataIndex: 'rangeCount', width: 110, align: 'right' },
    linkActionsColumn<UnitRow>(
      {
        title: t('col.actions'),
        width: 140,
        items: [
          { key: 'edit', perm: 'editProbeUnit', label: t('action.edit'), onClick: setEditing },
          {
            key: 'delete',
            perm: 'removeProbeUnit',
            label: t('action.delete'),
            danger: true,
            // A unit some range measures in stays: the link says why it cannot go.
            disabled: inUse,
            hint: (r) => (inUse(r) ? t('inUse', { count: r.rangeCount }) : undefined),
            confirm: (r) => ({ title: t('confirm.delete', { name: unitName(t, r) }), okText: t('form.ok'), cancelText: t('form.cancel'), danger: true }),
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
      title={t('title')}
      route={unitApi.page}
      columns={columns}
      toolbar={
        <AddButton perm="newProbeUnit" onClick={() => setEditing('new')}>
          {t('action.add')}
        </AddButton>
      }
      empty={t('empty')}
      scrollX={900}
    >
      <UnitDialog target={editing} onClose={() => setEditing(null)} onDone={list.reload} />
    </ListPage>
  );
}
