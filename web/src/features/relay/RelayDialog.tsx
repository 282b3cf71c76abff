/** Add or edit a relay (spec §3 Relay: number, name, type, MAC, reporting interval; its gateway and carrier; time zone). */
import { Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { RELAY_TYPES, relayApi, type RelayRow } from '@coldwatch/contract';
import { FormDialog, useRecordDialog } from '../../ui/FormDialog';
import { serverFieldErrors, trimmed } from '../sys/formRules';
import { timeZoneOptions } from '../device/deviceOptions';
import { DeviceBindingFields, DeviceNameFields } from '../device/deviceFields';
import { useTransmitDefault } from '../device/useTransmitDefault';

interface Values {
  devNo: string;
  name: string;
  type: (typeof RELAY_TYPES)[number];
  mac?: string;
  reportInterval?: number;
  gatewayId: number;
  carrierId?: number | null;
  tz: string;
}

const FIELDS = ['devNo', 'name', 'type', 'mac', 'reportInterval', 'gatewayId', 'carrierId', 'tz'];

export function RelayDialog({ target, onClose, onDone }: { target: RelayRow | 'new' | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('relay');
  const reportDefault = useTransmitDefault('relay');
  const { form, row: editing, saving, save: saveTo } = useRecordDialog<RelayRow, Values>({
    target,
    t,
    // §8 "the number already exists" (420) belongs to the number.
    errors: (e) => serverFieldErrors(e, FIELDS, { 420: 'devNo' }),
    values: (r) => (r === 'new' ? { type: 'relay1', reportInterval: reportDefault, tz: '+08:00' } : { ...r, type: r.type as Values['type'] }),
    onDone,
    onClose,
  });
  const save = () =>
    saveTo({ ...relayApi, added: t('msg.added'), updated: t('msg.updated') }, (v) => ({
      devNo: v.devNo,
      name: trimmed(v.name) ?? '',
      type: v.type,
      mac: v.mac ?? '',
      reportInterval: v.reportInterval,
      gatewayId: v.gatewayId,
      carrierId: v.carrierId ?? null,
      tz: v.tz,
    }));
  return (
    <FormDialog scrollBody open={!!target} title={t(editing ? 'editTitle' : 'addTitle')} okText={t('ok')} cancelText={t('cancel')} saving={saving} onSubmit={save} onCancel={onClose} form={form} formName="relayForm">
      <DeviceNameFields t={t} />
      <Form.Item name="type" label={t('col.type')}>
        <Select options={RELAY_TYPES.map((x) => ({ value: x, label: t(`type.${x}`) }))} />
      </Form.Item>
      <Form.Item name="mac" label={t('col.mac')} extra={t('macHelp')} rules={[{ pattern: /^(([0-9A-Fa-f]{2}[:-]?){5}[0-9A-Fa-f]{2})?$/, message: t('rule.mac') }]}>
        <Input maxLength={17} />
      </Form.Item>
      {/* Empty on a new relay: the server gives it the platform's default. */}
      <Form.Item name="reportInterval" label={t('col.reportInterval')} rules={[{ required: !!editing, type: 'integer', min: 10, max: 86400, message: t('rule.reportInterval') }]}>
        <InputNumber precision={0} min={10} max={86400} style={{ width: 180 }} suffix="s" placeholder={reportDefault === undefined ? undefined : String(reportDefault)} />
      </Form.Item>
      <DeviceBindingFields t={t} open={!!target} device={editing} gatewayHelp={t('gatewayHelp')} carrierHelp={t('carrierHelp')} searchGateways />
      <Form.Item name="tz" label={t('col.tz')}>
        <Select options={timeZoneOptions} />
      </Form.Item>
    </FormDialog>
  );
}
