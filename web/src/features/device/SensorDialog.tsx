/** Add or edit a sensor, gas detector or door magnet (spec §3 Sensor: number, type or gas, description, gateway, carrier, sample interval, calibration, time zone). */
import { useEffect, useMemo, useState } from 'react';
import { App, DatePicker, Form, Input, InputNumber, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { calibNoticeOk, deviceNo, GAS_CODES, gatewayApi, sampleIntervalSeconds, SENSOR_TYPES, type GasCode, type SensorKind, type SensorRow, type SensorType } from '@coldwatch/contract';
import { SENSOR_KIND_DEFS } from './sensorKinds';
import { typeName } from '../type/typeLabels';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { matches, rules, serverFieldErrors, trimmed, zodRule } from '../sys/formRules';
import { timeZoneOptions, useCarrierOptions } from './deviceOptions';
import { fromWall, toWall } from '../../lib/format';
import { useOffered } from '../type/useOffered';

interface Values {
  devNo: string;
  type: SensorType;
  gasCode?: GasCode | null;
  description?: string;
  gatewayId: number;
  carrierId?: number | null;
  sampleInterval: number;
  calibExpiry?: Dayjs | null;
  calibNotice?: Dayjs | null;
  tz: string;
}

const FIELDS = ['devNo', 'type', 'gasCode', 'description', 'gatewayId', 'carrierId', 'sampleInterval', 'calibExpiry', 'calibNotice', 'tz'];

export function SensorDialog({ kind = 'sensor', target, onClose, onDone }: { kind?: SensorKind; target: SensorRow | 'new' | null; onClose: () => void; onDone: () => void }) {
  const def = SENSOR_KIND_DEFS[kind];
  const { t } = useTranslation('device');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [carrierSearch, setCarrierSearch] = useState('');
  const [gatewaySearch, setGatewaySearch] = useState('');
  const editing = target && target !== 'new' ? target : null;
  const offered = useOffered();
  const carriers = useCarrierOptions(!!target, carrierSearch, editing?.customerId);
  const gateways = useCall(gatewayApi.page, { query: { iDisplayLength: 100, sn: gatewaySearch || undefined } }, { enabled: !!target });
  const gatewayOptions = useMemo(() => {
    const list = (gateways.data?.rows ?? []).filter((g) => !editing || g.customerId === editing.customerId).map((g) => ({ value: g.id, label: `${g.sn} · ${g.name}` }));
    if (editing && !list.some((o) => o.value === editing.gatewayId)) list.unshift({ value: editing.gatewayId, label: `${editing.gatewaySn} · ${editing.gatewayName}` });
    return list;
  }, [gateways.data, editing]);
  const carrierOptions = editing?.carrierId && !carriers.options.some((o) => o.value === editing.carrierId) ? [{ value: editing.carrierId, label: editing.carrierName ?? '' }, ...carriers.options] : carriers.options;
  // §8 "the number already exists" (420) belongs to the device number.
  const { saving, submit } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, FIELDS, { 420: 'devNo' }));
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue(
      target === 'new'
        ? { type: kind === 'sensor' ? 'zigbee_th' : kind, gasCode: kind === 'gas' ? '0x04' : null, sampleInterval: 60, tz: '+08:00' }
        : { ...target, gasCode: target.gasCode as GasCode | null, calibExpiry: target.calibExpiry ? dayjs(target.calibExpiry) : null, calibNotice: target.calibNotice ? toWall(target.calibNotice, target.tz) : null },
    );
  }, [target, form, kind]);
  const save = () =>
    submit(async (v) => {
      const body = {
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
      };
      if (target === 'new') await call(def.api.add, { body });
      else await call(def.api.update, { body: { ...body, id: editing!.id } });
      void message.success(target === 'new' ? t('msg.added') : t('msg.updated'));
      onDone();
      onClose();
    });
  return (
    <FormDialog scrollBody open={!!target} title={target === 'new' ? t(`${def.texts}.addTitle`) : t(`${def.texts}.editTitle`)} okText={t('form.ok')} cancelText={t('form.cancel')} saving={saving} onSubmit={save} onCancel={onClose}>
      <Form form={form} name="sensorForm" layout="vertical" requiredMark>
        <Form.Item name="devNo" label={t('sensor.devNo')} rules={[{ required: true, message: t('rule.required') }, matches(deviceNo, t('rule.deviceNo'))]}>
          <Input maxLength={30} disabled={!!editing} />
        </Form.Item>
        {/* A gas detector or door magnet is of its kind's type: a gas detector names its gas instead. */}
        <Form.Item name="type" label={t('sensor.type')} hidden={kind !== 'sensor'}>
          <Select options={SENSOR_TYPES.filter((s) => s !== 'gas' && s !== 'magnet' && offered.sensor(s, editing?.type)).map((s) => ({ value: s, label: t(`carrier:sensorType.${s}`) }))} />
        </Form.Item>
        {kind === 'gas' && (
          <Form.Item name="gasCode" label={t('gas.gasCode')} rules={[{ required: true, message: t('gas.gasRequired') }]}>
            <Select options={GAS_CODES.filter((g) => offered.gas(g, editing?.gasCode)).map((g) => ({ value: g, label: typeName(t, 'gas', g) }))} />
          </Form.Item>
        )}
        <Form.Item name="gatewayId" label={t('sensor.gateway')} extra={t('sensor.gatewayHelp')} rules={[{ required: true, message: t('rule.required') }]}>
          <Select showSearch={{ filterOption: false, onSearch: setGatewaySearch }} loading={gateways.isFetching} options={gatewayOptions} />
        </Form.Item>
        <Form.Item name="carrierId" label={t('sensor.carrier')}>
          <Select allowClear showSearch={{ filterOption: false, onSearch: setCarrierSearch }} loading={carriers.loading} options={carrierOptions} />
        </Form.Item>
        <Form.Item name="sampleInterval" label={t('sensor.sampleInterval')} extra={t('sensor.sampleIntervalHelp')} rules={[zodRule(sampleIntervalSeconds, t)]}>
          <InputNumber precision={0} min={10} max={65535} style={{ width: 180 }} suffix="s" />
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
      </Form>
    </FormDialog>
  );
}
