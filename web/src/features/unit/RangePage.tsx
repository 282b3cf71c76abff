/**
 * /arch/detection: the customer's monitoring (probe) ranges (spec §3: unit of measurement,
 * minimum, maximum; §5 both required, min not above max, two decimals, one range per unit).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { App, Button, Form, InputNumber, Popconfirm, Select, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { rangeApi, rangeBound, unitApi, type RangeRow } from '@coldwatch/contract';
import { call, idList } from '../../api/call';
import { useAction, useCall } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { PageCard, PagedTable, SearchBar, type PagedTableRef, type SearchField } from '../../ui';
import { fmtNumber } from '../../lib/format';
import { serverFieldErrors, zodRule } from '../sys/formRules';
import { unitName } from './unitLabels';

interface Values {
  unitId: number;
  min: number;
  max: number;
}

function RangeDialog({ target, taken, onClose, onDone }: { target: RangeRow | 'new' | null; taken: Set<number>; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('unit');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const units = useCall(unitApi.list);
  const { saving, submit } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, ['unitId', 'min', 'max'], {}));
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    if (target !== 'new') form.setFieldsValue({ unitId: target.unitId, min: target.min, max: target.max });
  }, [target, form]);
  const save = () =>
    submit(async (v) => {
      const body = { unitId: v.unitId, min: v.min, max: v.max };
      if (target === 'new') await call(rangeApi.add, { body });
      else await call(rangeApi.update, { body: { ...body, id: (target as RangeRow).id } });
      void message.success(target === 'new' ? t('msg.added') : t('msg.updated'));
      onDone();
      onClose();
    });
  const mine = target !== 'new' && target ? target.unitId : undefined;
  const unitId = Form.useWatch('unitId', form);
  const mark = units.data?.find((u) => u.id === unitId)?.mark;
  return (
    <FormDialog open={!!target} title={target === 'new' ? t('range.addTitle') : t('range.editTitle')} okText={t('form.ok')} cancelText={t('form.cancel')} saving={saving} onSubmit={save} onCancel={onClose}>
      <Form form={form} name="rangeForm" layout="vertical" requiredMark>
        <Form.Item name="unitId" label={t('range.unit')} rules={[{ required: true, message: t('range.unitRequired') }]} extra={t('range.onePerUnit')}>
          <Select
            loading={units.isPending}
            options={(units.data ?? []).map((u) => ({ value: u.id, label: `${unitName(t, u)} (${u.mark})`, disabled: taken.has(u.id) && u.id !== mine }))}
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
      </Form>
    </FormDialog>
  );
}

export default function RangePage() {
  const { t } = useTranslation('unit');
  const { can, user } = useAuth();
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<{ unitId?: number }>({});
  const [editing, setEditing] = useState<RangeRow | 'new' | null>(null);
  const units = useCall(unitApi.list);
  const own = useCall(rangeApi.list, { query: { customerId: user?.customerId } }, { enabled: !!user });
  const taken = useMemo(() => new Set((own.data ?? []).map((r) => r.unitId)), [own.data]);
  const params = useMemo(() => ({ ...filters }), [filters]);
  const reload = () => {
    table.current?.reload();
    void own.refetch();
  };
  const del = useAction(rangeApi.del, { success: t('msg.deleted'), onDone: reload });

  const columns: ColumnsType<RangeRow> = [
    { title: t('range.unit'), key: 'unit', width: 180, render: (_, r) => `${unitName(t, r)} (${r.mark})` },
    { title: t('range.min'), dataIndex: 'min', width: 120, align: 'right', render: (v: number, r) => `${fmtNumber(v)} ${r.mark}` },
    { title: t('range.max'), dataIndex: 'max', width: 120, align: 'right', render: (v: number, r) => `${fmtNumber(v)} ${r.mark}` },
    ...(seesManyCustomers(user?.userType) ? [{ title: t('col.customer'), dataIndex: 'customerName', width: 160 }] : []),
    {
      title: t('col.actions'),
      key: 'actions',
      width: 140,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          {can('editRange') && (
            <Button type="link" size="small" onClick={() => setEditing(r)}>
              {t('action.edit')}
            </Button>
          )}
          {can('removeRange') && (
            <Popconfirm title={t('range.confirmDelete', { name: unitName(t, r) })} okText={t('form.ok')} cancelText={t('form.cancel')} okButtonProps={{ danger: true }} onConfirm={() => del.run({ query: { ids: idList([r.id]) } })}>
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
    { name: 'unitId', type: 'select', label: t('range.unit'), width: 180, options: (units.data ?? []).map((u) => ({ value: u.id, label: `${unitName(t, u)} (${u.mark})` })) },
  ];
  return (
    <PageCard title={t('range.title')}>
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16, flexWrap: 'wrap' }}>
        <div style={{ flex: 1, minWidth: 240 }}>
          <SearchBar fields={fields} onSearch={(v) => setFilters({ unitId: v.unitId as number })} />
        </div>
        {can('newRange') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} disabled={!!units.data && taken.size >= units.data.length}>
            {t('action.add')}
          </Button>
        )}
      </div>
      <PagedTable ref={table} route={rangeApi.page} params={params} size="small" rowKey="id" columns={columns} locale={{ emptyText: t('range.empty') }} scroll={{ x: 700 }} />
      <RangeDialog target={editing} taken={taken} onClose={() => setEditing(null)} onDone={reload} />
    </PageCard>
  );
}
