/** Add or edit a smart base (spec §3: number, name, base type; its gateway and monitoring point; description, time zone). */
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { BASE_TYPES, baseApi, type BaseRow } from '@coldwatch/contract';
import { FormDialog, useRecordDialog } from '../../ui/FormDialog';
import { rules, serverFieldErrors, trimmed } from '../sys/formRules';
import { timeZoneOptions } from '../device/deviceOptions';
import { DeviceBindingFields, DeviceNameFields } from '../device/deviceFields';
import { typeName } from '../type/typeLabels';
import { useOffered } from '../type/useOffered';

interface Values {
  devNo: string;
  name: string;
  type: (typeof BASE_TYPES)[number];
  gatewayId: number;
  carrierId?: number | null;
  description?: string;
  tz: string;
}

const FIELDS = ['devNo', 'name', 'type', 'gatewayId', 'carrierId', 'description', 'tz'];

export function BaseDialog({ target, onClose, onDone }: { target: BaseRow | 'new' | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('base');
  const offered = useOffered();
  const { form, row: editing, saving, save: saveTo } = useRecordDialog<BaseRow, Values>({
    target,
    t,
    errors: (e) => serverFieldErrors(e, FIELDS, { 420: 'devNo' }),
    values: (r) => (r === 'new' ? { type: 'thermohygro', tz: '+08:00' } : { ...r, type: r.type as Values['type'] }),
    onDone,
    onClose,
  });
  const save = () =>
    saveTo({ ...baseApi, added: t('msg.added'), updated: t('msg.updated') }, (v) => ({
      devNo: v.devNo,
      name: trimmed(v.name) ?? '',
      type: v.type,
      gatewayId: v.gatewayId,
      carrierId: v.carrierId ?? null,
      description: trimmed(v.description) ?? '',
      tz: v.tz,
    }));
  return (
    <FormDialog open={!!target} title={t(editing ? 'editTitle' : 'addTitle')} okText={t('ok')} cancelText={t('cancel')} saving={saving} onSubmit={save} onCancel={onClose} form={form} formName="baseForm">
      <DeviceNameFields t={t} />
      <Form.Item name="type" label={t('col.type')}>
        <Select options={BASE_TYPES.filter((x) => x === editing?.type || offered.other('base', x)).map((x) => ({ value: x, label: typeName(t, 'base', x) }))} />
      </Form.Item>
      <DeviceBindingFields t={t} open={!!target} device={editing} />
      <Form.Item name="tz" label={t('col.tz')}>
        <Select options={timeZoneOptions} />
      </Form.Item>
      <Form.Item name="description" label={t('col.description')} rules={rules(t, { max: 250 })}>
        <Input.TextArea maxLength={250} rows={2} showCount />
      </Form.Item>
    </FormDialog>
  );
}
