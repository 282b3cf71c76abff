/**
 * /sys/unitMeasurement: the units of measure (spec §3: unit, mark, number, description; types
 * string, number, decimal, time; §5 unit, mark and number required and unique). A platform
 * catalogue: customers choose from it for their monitoring ranges (/arch/detection).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { App, Button, Form, Input, Popconfirm, Select, Space, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { code, UNIT_VALUE_TYPES, unitApi, type UnitRow, type UnitValueType } from '@coldwatch/contract';
import { call, idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { PageCard, PagedTable, SearchBar, type PagedTableRef, type SearchField } from '../../ui';
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
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const { saving, submit } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, FIELDS, {}));
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue(target === 'new' ? { valueType: 'decimal' } : target);
  }, [target, form]);
  const save = () =>
    submit(async (v) => {
      const body = { unit: trimmed(v.unit), mark: trimmed(v.mark), number: trimmed(v.number), valueType: v.valueType, description: trimmed(v.description) };
      if (target === 'new') await call(unitApi.add, { body });
      else await call(unitApi.update, { body: { ...body, id: (target as UnitRow).id } });
      void message.success(target === 'new' ? t('msg.added') : t('msg.updated'));
      onDone();
      onClose();
    });
  return (
    <FormDialog open={!!target} title={target === 'new' ? t('form.addTitle') : t('form.editTitle')} okText={t('form.ok')} cancelText={t('form.cancel')} saving={saving} onSubmit={save} onCancel={onClose}>
      <Form form={form} name="unitForm" layout="vertical" requiredMark>
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
      </Form>
    </FormDialog>
  );
}

export default function UnitPage() {
  const { t } = useTranslation('unit');
  const { can } = useAuth();
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<{ unit?: string; valueType?: UnitValueType }>({});
  const [editing, setEditing] = useState<UnitRow | 'new' | null>(null);
  const params = useMemo(() => ({ ...filters }), [filters]);
  const reload = () => table.current?.reload();
  const del = useAction(unitApi.del, { success: t('msg.deleted'), onDone: reload, invalidates: [unitApi.list] });

  const columns: ColumnsType<UnitRow> = [
    { title: t('col.unit'), key: 'unit', width: 160, render: (_, r) => unitName(t, r) },
    { title: t('col.mark'), dataIndex: 'mark', width: 90 },
    { title: t('col.number'), dataIndex: 'number', width: 110, render: (v: string) => <code>{v}</code> },
    { title: t('col.valueType'), dataIndex: 'valueType', width: 100, render: (v: UnitValueType) => <Tag color={TYPE_COLORS[v]}>{t(`type.${v}`)}</Tag> },
    { title: t('col.description'), dataIndex: 'description', ellipsis: true, render: (v: string) => v || '--' },
    { title: t('col.ranges'), dataIndex: 'rangeCount', width: 110, align: 'right' },
    {
      title: t('col.actions'),
      key: 'actions',
      width: 140,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          {can('editProbeUnit') && (
            <Button type="link" size="small" onClick={() => setEditing(r)}>
              {t('action.edit')}
            </Button>
          )}
          {can('removeProbeUnit') &&
            (r.rangeCount > 0 ? (
              <Tooltip title={t('inUse', { count: r.rangeCount })}>
                <Button type="link" size="small" danger disabled>
                  {t('action.delete')}
                </Button>
              </Tooltip>
            ) : (
              <Popconfirm title={t('confirm.delete', { name: unitName(t, r) })} okText={t('form.ok')} cancelText={t('form.cancel')} okButtonProps={{ danger: true }} onConfirm={() => del.run({ query: { ids: idList([r.id]) } })}>
                <Button type="link" size="small" danger>
                  {t('action.delete')}
                </Button>
              </Popconfirm>
            ))}
        </Space>
      ),
    },
  ];
  const fields: SearchField[] = [
    { name: 'unit', type: 'input', label: t('filter.unit'), width: 160 },
    { name: 'valueType', type: 'select', label: t('filter.valueType'), width: 120, options: UNIT_VALUE_TYPES.map((v) => ({ value: v, label: t(`type.${v}`) })) },
  ];
  return (
    <PageCard title={t('title')}>
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16, flexWrap: 'wrap' }}>
        <div style={{ flex: 1, minWidth: 240 }}>
          <SearchBar fields={fields} onSearch={(v) => setFilters({ unit: v.unit as string, valueType: v.valueType as UnitValueType })} />
        </div>
        {can('newProbeUnit') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('action.add')}
          </Button>
        )}
      </div>
      <PagedTable ref={table} route={unitApi.page} params={params} size="small" rowKey="id" columns={columns} locale={{ emptyText: t('empty') }} scroll={{ x: 900 }} />
      <UnitDialog target={editing} onClose={() => setEditing(null)} onDone={reload} />
    </PageCard>
  );
}
