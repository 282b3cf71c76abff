/** Add or edit a display screen (spec §3 Display: number, name, nickname, type, alarm on/off, duration, interval, heartbeat interval; its gateway and point). */
import { useEffect, useMemo, useState } from 'react';
import { App, Form, Input, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { deviceNo, DISPLAY_TYPES, displayApi, gatewayApi, type DisplayRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { matches, rules, serverFieldErrors, trimmed } from '../sys/formRules';
import { timeZoneOptions, useCarrierOptions } from '../device/deviceOptions';

type Values = Omit<DisplayRow, 'id' | 'gatewaySn' | 'gatewayName' | 'carrierName' | 'status' | 'customerId' | 'customerName' | 'createdAt' | 'type'> & { type: (typeof DISPLAY_TYPES)[number] };

const FIELDS = ['devNo', 'name', 'nickname', 'type', 'gatewayId', 'carrierId', 'alarmOn', 'alarmDuration', 'alarmInterval', 'heartbeatInterval', 'tz'];
const secondsRule = (min: number, max: number, message: string) => [{ required: true, type: 'integer' as const, min, max, message }];

export function DisplayDialog({ target, onClose, onDone }: { target: DisplayRow | 'new' | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('display');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const editing = target && target !== 'new' ? target : null;
  const [carrierSearch, setCarrierSearch] = useState('');
  const carriers = useCarrierOptions(!!target, carrierSearch, editing?.customerId);
  const gateways = useCall(gatewayApi.page, { query: { iDisplayLength: 100, customerId: editing?.customerId } }, { enabled: !!target });
  const gatewayOptions = useMemo(() => (gateways.data?.rows ?? []).map((g) => ({ value: g.id, label: `${g.sn} · ${g.name}` })), [gateways.data]);
  const carrierOptions = editing?.carrierId && !carriers.options.some((o) => o.value === editing.carrierId) ? [{ value: editing.carrierId, label: editing.carrierName ?? '' }, ...carriers.options] : carriers.options;
  // §8 "display (terminal) already exists" (420) belongs to the number.
  const { saving, submit } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, FIELDS, { 420: 'devNo' }));
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue(target === 'new' ? { type: 'display1', alarmOn: true, alarmDuration: 60, alarmInterval: 300, heartbeatInterval: 60, tz: '+08:00' } : { ...target, type: target.type as Values['type'] });
  }, [target, form]);
  const save = () =>
    submit(async (v) => {
      const body = { ...v, name: trimmed(v.name) ?? '', nickname: trimmed(v.nickname) ?? '', carrierId: v.carrierId ?? null };
      if (editing) await call(displayApi.update, { body: { ...body, id: editing.id } });
      else await call(displayApi.add, { body });
      void message.success(t(editing ? 'msg.updated' : 'msg.added'));
      onDone();
      onClose();
    });
  return (
    <FormDialog scrollBody open={!!target} title={t(editing ? 'editTitle' : 'addTitle')} okText={t('ok')} cancelText={t('cancel')} saving={saving} onSubmit={save} onCancel={onClose}>
      <Form form={form} name="displayForm" layout="vertical" requiredMark>
        <Form.Item name="devNo" label={t('col.devNo')} rules={[{ required: true, message: t('rule.required') }, matches(deviceNo, t('rule.devNo'))]}>
          <Input maxLength={30} />
        </Form.Item>
        <Form.Item name="name" label={t('col.name')} rules={rules(t, { required: true, max: 50 })}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="nickname" label={t('col.nickname')} rules={rules(t, { max: 50 })}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="type" label={t('col.type')}>
          <Select options={DISPLAY_TYPES.map((x) => ({ value: x, label: t(`type.${x}`) }))} />
        </Form.Item>
        <Form.Item name="gatewayId" label={t('col.gateway')} rules={[{ required: true, message: t('rule.required') }]}>
          <Select loading={gateways.isFetching} options={gatewayOptions} />
        </Form.Item>
        <Form.Item name="carrierId" label={t('col.carrier')} extra={t('carrierHelp')}>
          <Select allowClear showSearch={{ filterOption: false, onSearch: setCarrierSearch }} loading={carriers.loading} options={carrierOptions} />
        </Form.Item>
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
        <Form.Item name="heartbeatInterval" label={t('col.heartbeatInterval')} rules={secondsRule(10, 86400, t('rule.heartbeatInterval'))}>
          <InputNumber precision={0} min={10} max={86400} style={{ width: 180 }} suffix="s" />
        </Form.Item>
        <Form.Item name="tz" label={t('col.tz')}>
          <Select options={timeZoneOptions} />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}
