/**
 * /arch/detection: the customer's monitoring (probe) ranges (spec §3: unit of measurement,
 * minimum, maximum; §5 both required, min not above max, two decimals, one range per unit).
 */
import { useMemo, useState } from 'react';
import { Form, InputNumber, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { rangeApi, rangeBound, unitApi, type RangeRow } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction, useCall } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { FormDialog, useRecordDialog } from '../../ui/FormDialog';
import { AddButton, linkActionsColumn, ListPage, useListRef, type ListColumn } from '../../ui';
import { fmtNumber } from '../../lib/format';
import { serverFieldErrors, zodRule } from '../sys/formRules';
import { unitName, unitWithMark } from './unitLabels';

interface Values {
  unitId: number;
  min: number;
  max: number;
}

function RangeDialog({ target, taken, onClose, onDone }: { target: RangeRow | 'new' | null; taken: Set<number>; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('unit');
  const units = useCall(unitApi.list);
  const { form, row, saving, save: saveTo } = useRecordDialog<RangeRow, Values>({
    target,
    t,
    errors: (e) => serverFieldErrors(e, ['unitId', 'min', 'max'], {}),
    values: (r) => (r === 'new' ? undefined : { unitId: r.unitId, min: r.min, max: r.max }),
    onDone,
    onClose,
  });
  const save = () => saveTo({ ...rangeApi, added: t('msg.added'), updated: t('msg.updated') }, (v) => ({ unitId: v.unitId, min: v.min, max: v.max }));
  const mine = row?.unitId;
  const unitId = Form.useWatch('unitId', form);
  const mark = units.data?.find((u) => u.id === unitId)?.mark;
  return (
    <FormDialog open={!!target} title={target === 'new' ? t('range.addTitle') : t('range.editTitle')} okText={t('form.ok')} cancelText={t('form.cancel')} saving={saving} onSubmit={save} onCancel={onClose} form={form} formName="rangeForm">
      <Form.Item name="unitId" label={t('range.unit')} rules={[{ required: true, message: t('range.unitRequired') }]} extra={t('range.onePerUnit')}>
        <Select
          loading={units.isPending}
          options={(units.data ?? []).map((u) => ({ value: u.id, label: unitWithMark(t, u), disabled: taken.has(u.id) && u.id !== mine }))}
        />
      </Form.Item>
      <Space.Compact block>
        <Form.Item name="min" label={t('range.min')} rules={[zodRule(rangeBound, t)]} style={{ flex: 1 }}>
          <InputNumber precision={2} step={0.5} style={{ width: '100%' }} suffix={mark} />
        </Form.Item>
        <Form.Item
          name="max"
          label={t('range.max')}
          dependencies={['min']}
          style={{ flex: 1, marginInlineStart: 12 }}
          rules={[
            zodRule(rangeBound, t),
            ({ getFieldValue }) => ({
              validator: (_, v) => (v === null || v === undefined || getFieldValue('min') === null || getFieldValue('min') === undefined || getFieldValue('min') <= v ? Promise.resolve() : Promise.reject(new Error(t('range.minAboveMax')))),
            }),
          ]}
        >
          <InputNumber precision={2} step={0.5} style={{ width: '100%' }} suffix={mark} />
        </Form.Item>
      </Space.Compact>
    </FormDialog>
  );
}

export default function RangePage() {
  const { t } = useTranslation('unit');
  const { can, user } = useAuth();
  const list = useListRef();
  const [editing, setEditing] = useState<RangeRow | 'new' | null>(null);
  const units = useCall(unitApi.list);
  const own = useCall(rangeApi.list, { query: { customerId: user?.customerId } }, { enabled: !!user });
  const taken = useMemo(() => new Set((own.data ?? []).map((r) => r.unitId)), [own.data]);
  const reload = () => {
    list.reload();
    void own.refetch();
  };
  const del = useAction(rangeApi.del, { success: t('msg.deleted'), onDone: reload });

  const columns: ListColumn<RangeRow>[] = [
    {
      title: t('range.unit'),
      key: 'unit',
      width: 180,
      render: (_, r) => unitWithMark(t, r),
      search: { type: 'select', name: 'unitId', width: 180, options: (units.data ?? []).map((u) => ({ value: u.id, label: unitWithMark(t, u) })) },
    },
    { title: t('range.min'), dataIndex: 'min', width: 120, align: 'right', render: (v: number, r) => `${fmtNumber(v)} ${r.mark}` },
    { title: t('range.max'), dataIndex: 'max', width: 120, align: 'right', render: (v: number, r) => `${fmtNumber(v)} ${r.mark}` },
    { title: t('col.customer'), dataIndex: 'customerName', width: 160, hidden: !seesManyCustomers(user?.userType) },
    linkActionsColumn<RangeRow>(
      {
        title: t('col.actions'),
        width: 140,
        items: [
          { key: 'edit', perm: 'editRange', label: t('action.edit'), onClick: setEditing },
          {
            key: 'delete',
            perm: 'removeRange',
            label: t('action.delete'),
            danger: true,
            confirm: (r) => ({ title: t('range.confirmDelete', { name: unitName(t, r) }), okText: t('form.ok'), cancelText: t('form.cancel'), danger: true }),
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
      title={t('range.title')}
      intro={t('range.intro')}
      route={rangeApi.page}
      columns={columns}
      toolbar={
        // One range per unit: nothing to add once every unit has one.
        <AddButton perm="newRange" onClick={() => setEditing('new')} disabled={!!units.data && taken.size >= units.data.length}>
          {t('action.add')}
        </AddButton>
      }
      empty={t('range.empty')}
      scrollX={700}
    >
      <RangeDialog target={editing} taken={taken} onClose={() => setEditing(null)} onDone={reload} />
    </ListPage>
  );
}
