/** Add or edit a sensor, gas detector or door magnet (spec §3 Sensor: number, type or gas, description, gateway, carrier, sample interval, calibration, time zone). */
import { DatePicker, Form, Input, InputNumber, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { calibNoticeOk, CLIMATE_SENSOR_TYPES, deviceNo, GAS_CODES, sampleIntervalSeconds, type GasCode, type SensorKind, type SensorRow, type SensorType } from '@coldwatch/contract';
import { SENSOR_KIND_DEFS } from './sensorKinds';
import { typeName } from '../type/typeLabels';
import { FormDialog, useRecordDialog } from '../../ui/FormDialog';
import { matches, rules, serverFieldErrors, trimmed, zodRule } from '../sys/formRules';
import { timeZoneOptions } from './deviceOptions';
import { CarrierSelect, GatewaySelect } from './devicePickers';
import { fromWall, toWall } from '../../lib/format';
import { useOffered } from '../type/useOffered';
import { useTransmitDefault } from './useTransmitDefault';

interface Values {
  devNo: string;
  type: SensorType;
  gasCode?: GasCode | null;
  description?: string;
  gatewayId: number;
  carrierId?: number | null;
  sampleInterval?: number;
  calibExpiry?: Dayjs | null;
  calibNotice?: Dayjs | null;
  tz: string;
}

const FIELDS = ['devNo', 'type', 'gasCode', 'description', 'gatewayId', 'carrierId', 'sampleInterval', 'calibExpiry', 'calibNotice', 'tz'];

export function SensorDialog({ kind = 'sensor', target, onClose, onDone }: { kind?: SensorKind; target: SensorRow | 'new' | null; onClose: () => void; onDone: () => void }) {
  const def = SENSOR_KIND_DEFS[kind];
  const { t } = useTranslation('device');
  const sampleDefault = useTransmitDefault('sensor');
  const offered = useOffered();
  const { form, row: editing, saving, save: saveTo } = useRecordDialog<SensorRow, Values>({
    target,
    t,
    // §8 "the number already exists" (420) belongs to the device number.
    errors: (e) => serverFieldErrors(e, FIELDS, { 420: 'devNo' }),
    values: (r) =>
      r === 'new'
        ? { type: kind === 'sensor' ? 'zigbee_th' : kind, gasCode: kind === 'gas' ? '0x04' : null, sampleInterval: sampleDefault, tz: '+08:00' }
        : { ...r, gasCode: r.gasCode as GasCode | null, calibExpiry: r.calibExpiry ? dayjs(r.calibExpiry) : null, calibNotice: r.calibNotice ? toWall(r.calibNotice, r.tz) : null },
    onDone,
    onClose,
  });
  const save = () =>
    saveTo({ ...def.api, added: t('msg.added'), updated: t('msg.updated') }, (v) => ({
      devNo: v.devNo,
      type: v.type,
      gasCode: kind === 'gas' ? (v.gasCode ?? null) : null,
      description: trimmed(v.description),
      gatewayId: v.gatewayId,
      carrierId: v.carrierId ?? null,
      sampleInterval: v.sampleInterval,
      calibExpiry: v.calibExpiry ? v.calibExpiry.format('YYYY-MM-DD') : null,
      calibNotice: v.calibNotice ? fromWall(v.calibNotice, v.tz) : null,
      tz: v.tz,
    }));
  return (
    <FormDialog scrollBody open={!!target} title={target === 'new' ? t(`${def.texts}.addTitle`) : t(`${def.texts}.editTitle`)} okText={t('form.ok')} cancelText={t('form.cancel')} saving={saving} onSubmit={save} onCancel={onClose} form={form} formName="sensorForm">
      <Form.Item name="devNo" label={t('sensor.devNo')} rules={[{ required: true, message: t('rule.required') }, matches(deviceNo, t('rule.deviceNo'))]}>
        <Input maxLength={30} disabled={!!editing} />
      </Form.Item>
      {/* A gas detector or door magnet is of its kind's type: a gas detector names its gas instead. */}
      <Form.Item name="type" label={t('sensor.type')} hidden={kind !== 'sensor'}>
        <Select options={CLIMATE_SENSOR_TYPES.filter((s) => offered.sensor(s, editing?.type)).map((s) => ({ value: s, label: t(`carrier:sensorType.${s}`) }))} />
      </Form.Item>
      {kind === 'gas' && (
        <Form.Item name="gasCode" label={t('gas.gasCode')} rules={[{ required: true, message: t('gas.gasRequired') }]}>
          <Select options={GAS_CODES.filter((g) => offered.gas(g, editing?.gasCode)).map((g) => ({ value: g, label: typeName(t, 'gas', g) }))} />
        </Form.Item>
      )}
      <Form.Item name="gatewayId" label={t('sensor.gateway')} extra={t('sensor.gatewayHelp')} rules={[{ required: true, message: t('rule.required') }]}>
        <GatewaySelect open={!!target} customerId={editing?.customerId} current={editing} />
      </Form.Item>
      <Form.Item name="carrierId" label={t('sensor.carrier')}>
        <CarrierSelect open={!!target} customerId={editing?.customerId} current={editing} />
      </Form.Item>
      <Form.Item name="sampleInterval" label={t('sensor.sampleInterval')} extra={t('sensor.sampleIntervalHelp')} rules={[zodRule(sampleIntervalSeconds, t, { optional: !editing })]}>
        <InputNumber precision={0} min={10} max={65535} style={{ width: 180 }} suffix="s" placeholder={sampleDefault === undefined ? undefined : String(sampleDefault)} />
      </Form.Item>
      <Form.Item name="tz" label={t('form.tz')} extra={t('form.tzHelp')}>
        <Select options={timeZoneOptions} />
      </Form.Item>
      <Form.Item name="calibExpiry" label={t('sensor.calibExpiry')}>
        <DatePicker style={{ width: 200 }} />
      </Form.Item>
      <Form.Item
        name="calibNotice"
        label={t('sensor.calibNotice')}
        extra={t('sensor.calibNoticeHelp')}
        dependencies={['tz']}
        rules={[
          ({ getFieldValue }) => ({
            // §5: not before now, unless it is the saved value (perhaps already sent).
            validator: (_, v: Dayjs | null) => {
              const at = v ? fromWall(v, getFieldValue('tz')) : null;
              const saved = editing?.calibNotice ?? null;
              return at === saved || calibNoticeOk(at) ? Promise.resolve() : Promise.reject(new Error(t('sensor.calibNoticePast')));
            },
          }),
        ]}
      >
        <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: 200 }} />
      </Form.Item>
      <Form.Item name="description" label={t('sensor.description')} rules={rules(t, { max: 250 })}>
        <Input.TextArea maxLength={250} rows={2} showCount />
      </Form.Item>
    </FormDialog>
  );
}
