/** Add or edit a relay (spec §3 Relay: number, name, type, MAC, reporting interval; its gateway and carrier; time zone). */
import { useEffect, useMemo, useState } from 'react';
import { App, Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { deviceNo, gatewayApi, RELAY_TYPES, relayApi, type RelayRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { matches, rules, serverFieldErrors, trimmed } from '../sys/formRules';
import { timeZoneOptions, useCarrierOptions } from '../device/deviceOptions';

interface Values {
  devNo: string;
  name: string;
  type: (typeof RELAY_TYPES)[number];
  mac?: string;
  reportInterval: number;
  gatewayId: number;
  carrierId?: number | null;
  tz: string;
}

const FIELDS = ['devNo', 'name', 'type', 'mac', 'reportInterval', 'gatewayId', 'carrierId', 'tz'];

export function RelayDialog({ target, onClose, onDone }: { target: RelayRow | 'new' | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('relay');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const editing = target && target !== 'new' ? target : null;
  const [carrierSearch, setCarrierSearch] = useState('');
  const [gatewaySearch, setGatewaySearch] = useState('');
  const carriers = useCarrierOptions(!!target, carrierSearch, editing?.customerId);
  const gateways = useCall(gatewayApi.page, { query: { iDisplayLength: 100, sn: gatewaySearch || undefined, customerId: editing?.customerId } }, { enabled: !!target });
  const gatewayOptions = useMemo(() => {
    const list = (gateways.data?.rows ?? []).map((g) => ({ value: g.id, label: `${g.sn} · ${g.name}` }));
    if (editing && !list.some((o) => o.value === editing.gatewayId)) list.unshift({ value: editing.gatewayId, label: `${editing.gatewaySn} · ${editing.gatewayName}` });
    return list;
  }, [gateways.data, editing]);
  const carrierOptions = editing?.carrierId && !carriers.options.some((o) => o.value === editing.carrierId) ? [{ value: editing.carrierId, label: editing.carrierName ?? '' }, ...carriers.options] : carriers.options;
  // §8 "the number already exists" (420) belongs to the number.
  const { saving, submit } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, FIELDS, { 420: 'devNo' }));
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue(target === 'new' ? { type: 'relay1', reportInterval: 60, tz: '+08:00' } : { ...target, type: target.type as Values['type'] });
  }, [target, form]);
  const save = () =>
    submit(async (v) => {
      const body = { devNo: v.devNo, name: trimmed(v.name) ?? '', type: v.type, mac: v.mac ?? '', reportInterval: v.reportInterval, gatewayId: v.gatewayId, carrierId: v.carrierId ?? null, tz: v.tz };
      if (editing) await call(relayApi.update, { body: { ...body, id: editing.id } });
      else await call(relayApi.add, { body });
      void message.success(t(editing ? 'msg.updated' : 'msg.added'));
      onDone();
      onClose();
    });
  return (
    <FormDialog scrollBody open={!!target} title={t(editing ? 'editTitle' : 'addTitle')} okText={t('ok')} cancelText={t('cancel')} saving={saving} onSubmit={save} onCancel={onClose}>
      <Form form={form} name="relayForm" layout="vertical" requiredMark>
        <Form.Item name="devNo" label={t('col.devNo')} rules={[{ required: true, message: t('rule.required') }, matches(deviceNo, t('rule.devNo'))]}>
          <Input maxLength={30} />
        </Form.Item>
        <Form.Item name="name" label={t('col.name')} rules={rules(t, { required: true, max: 50 })}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="type" label={t('col.type')}>
          <Select options={RELAY_TYPES.map((x) => ({ value: x, label: t(`type.${x}`) }))} />
        </Form.Item>
        <Form.Item name="mac" label={t('col.mac')} extra={t('macHelp')} rules={[{ pattern: /^(([0-9A-Fa-f]{2}[:-]?){5}[0-9A-Fa-f]{2})?$/, message: t('rule.mac') }]}>
          <Input maxLength={17} />
        </Form.Item>
        <Form.Item name="reportInterval" label={t('col.reportInterval')} rules={[{ required: true, type: 'integer', min: 10, max: 86400, message: t('rule.reportInterval') }]}>
          <InputNumber precision={0} min={10} max={86400} style={{ width: 180 }} suffix="s" />
        </Form.Item>
        <Form.Item name="gatewayId" label={t('col.gateway')} extra={t('gatewayHelp')} rules={[{ required: true, message: t('rule.required') }]}>
          <Select showSearch={{ filterOption: false, onSearch: setGatewaySearch }} loading={gateways.isFetching} options={gatewayOptions} />
        </Form.Item>
        <Form.Item name="carrierId" label={t('col.carrier')} extra={t('carrierHelp')}>
          <Select allowClear showSearch={{ filterOption: false, onSearch: setCarrierSearch }} loading={carriers.loading} options={carrierOptions} />
        </Form.Item>
        <Form.Item name="tz" label={t('col.tz')}>
          <Select options={timeZoneOptions} />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}
