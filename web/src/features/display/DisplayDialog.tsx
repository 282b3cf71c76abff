/** Add or edit a display screen (spec §3 Display: number, name, nickname, type, alarm on/off, duration, interval, heartbeat interval; its gateway and point). */
import { Form, Input, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { DISPLAY_TYPES, displayApi, type DisplayRow } from '@coldwatch/contract';
import { FormDialog, useRecordDialog } from '../../ui/FormDialog';
import { rules, serverFieldErrors, trimmed } from '../sys/formRules';
import { timeZoneOptions } from '../device/deviceOptions';
import { DeviceBindingFields, DeviceNameFields } from '../device/deviceFields';
import { useTransmitDefault } from '../device/useTransmitDefault';

type Values = Omit<DisplayRow, 'id' | 'gatewaySn' | 'gatewayName' | 'carrierName' | 'status' | 'customerId' | 'customerName' | 'createdAt' | 'type'> & { type: (typeof DISPLAY_TYPES)[number] };

const FIELDS = ['devNo', 'name', 'nickname', 'type', 'gatewayId', 'carrierId', 'alarmOn', 'alarmDuration', 'alarmInterval', 'heartbeatInterval', 'tz'];
const secondsRule = (min: number, max: number, message: string) => [{ required: true, type: 'integer' as const, min, max, message }];

export function DisplayDialog({ target, onClose, onDone }: { target: DisplayRow | 'new' | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('display');
  const heartbeatDefault = useTransmitDefault('display');
  const { form, row: editing, saving, save: saveTo } = useRecordDialog<DisplayRow, Values>({
    target,
    t,
    // §8 "display (terminal) already exists" (420) belongs to the number.
    errors: (e) => serverFieldErrors(e, FIELDS, { 420: 'devNo' }),
    values: (r) => (r === 'new' ? { type: 'display1', alarmOn: true, alarmDuration: 60, alarmInterval: 300, heartbeatInterval: heartbeatDefault, tz: '+08:00' } : { ...r, type: r.type as Values['type'] }),
    onDone,
    onClose,
  });
  const save = () => saveTo({ ...displayApi, added: t('msg.added'), updated: t('msg.updated') }, (v) => ({ ...v, name: trimmed(v.name) ?? '', nickname: trimmed(v.nickname) ?? '', carrierId: v.carrierId ?? null }));
  return (
    <FormDialog scrollBody open={!!target} title={t(editing ? 'editTitle' : 'addTitle')} okText={t('ok')} cancelText={t('cancel')} saving={saving} onSubmit={save} onCancel={onClose} form={form} formName="displayForm">
      <DeviceNameFields t={t} />
      <Form.Item name="nickname" label={t('col.nickname')} rules={rules(t, { max: 50 })}>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="type" label={t('col.type')}>
        <Select options={DISPLAY_TYPES.map((x) => ({ value: x, label: t(`type.${x}`) }))} />
      </Form.Item>
      <DeviceBindingFields t={t} open={!!target} device={editing} carrierHelp={t('carrierHelp')} />
      <Form.Item name="alarmOn" label={t('col.alarmOn')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="alarmDuration" label={t('col.alarmDuration')} rules={secondsRule(1, 3600, t('rule.alarmDuration'))}>
        <InputNumber precision={0} min={1} max={3600} style={{ width: 180 }} suffix="s" />
      </Form.Item>
      <Form.Item
        name="alarmInterval"
        label={t('col.alarmInterval')}
        extra={t('alarmIntervalHelp')}
        dependencies={['alarmDuration']}
        rules={[
          ...secondsRule(10, 86400, t('rule.alarmInterval')),
          ({ getFieldValue }) => ({ validator: (_, v: number) => (v === undefined || v >= (getFieldValue('alarmDuration') ?? 0) ? Promise.resolve() : Promise.reject(new Error(t('rule.intervalBelowDuration')))) }),
        ]}
      >
        <InputNumber precision={0} min={10} max={86400} style={{ width: 180 }} suffix="s" />
      </Form.Item>
      {/* Empty on a new display: the server gives it the platform's default. */}
      <Form.Item name="heartbeatInterval" label={t('col.heartbeatInterval')} rules={[{ ...secondsRule(10, 86400, t('rule.heartbeatInterval'))[0], required: !!editing }]}>
        <InputNumber precision={0} min={10} max={86400} style={{ width: 180 }} suffix="s" placeholder={heartbeatDefault === undefined ? undefined : String(heartbeatDefault)} />
      </Form.Item>
      <Form.Item name="tz" label={t('col.tz')}>
        <Select options={timeZoneOptions} />
      </Form.Item>
    </FormDialog>
  );
}
