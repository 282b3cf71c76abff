/** Add or edit a smart base (spec §3: number, name, base type; its gateway and monitoring point; description, time zone). */
import { useEffect, useMemo, useState } from 'react';
import { App, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { BASE_TYPES, baseApi, deviceNo, gatewayApi, type BaseRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { matches, rules, serverFieldErrors, trimmed } from '../sys/formRules';
import { timeZoneOptions, useCarrierOptions } from '../device/deviceOptions';
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
  const { message } = App.useApp();
  const offered = useOffered();
  const [form] = Form.useForm<Values>();
  const editing = target && target !== 'new' ? target : null;
  const [carrierSearch, setCarrierSearch] = useState('');
  const carriers = useCarrierOptions(!!target, carrierSearch, editing?.customerId);
  const gateways = useCall(gatewayApi.page, { query: { iDisplayLength: 100, customerId: editing?.customerId } }, { enabled: !!target });
  const gatewayOptions = useMemo(() => (gateways.data?.rows ?? []).map((g) => ({ value: g.id, label: `${g.sn} · ${g.name}` })), [gateways.data]);
  const carrierOptions = editing?.carrierId && !carriers.options.some((o) => o.value === editing.carrierId) ? [{ value: editing.carrierId, label: editing.carrierName ?? '' }, ...carriers.options] : carriers.options;
  const { saving, submit } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, FIELDS, { 420: 'devNo' }));
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue(target === 'new' ? { type: 'thermohygro', tz: '+08:00' } : { ...target, type: target.type as Values['type'] });
  }, [target, form]);
  const save = () =>
    submit(async (v) => {
      const body = { devNo: v.devNo, name: trimmed(v.name) ?? '', type: v.type, gatewayId: v.gatewayId, carrierId: v.carrierId ?? null, description: trimmed(v.description) ?? '', tz: v.tz };
      if (editing) await call(baseApi.update, { body: { ...body, id: editing.id } });
      else await call(baseApi.add, { body });
      void message.success(t(editing ? 'msg.updated' : 'msg.added'));
      onDone();
      onClose();
    });
  return (
    <FormDialog open={!!target} title={t(editing ? 'editTitle' : 'addTitle')} okText={t('ok')} cancelText={t('cancel')} saving={saving} onSubmit={save} onCancel={onClose}>
      <Form form={form} name="baseForm" layout="vertical" requiredMark>
        <Form.Item name="devNo" label={t('col.devNo')} rules={[{ required: true, message: t('rule.required') }, matches(deviceNo, t('rule.devNo'))]}>
          <Input maxLength={30} />
        </Form.Item>
        <Form.Item name="name" label={t('col.name')} rules={rules(t, { required: true, max: 50 })}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="type" label={t('col.type')}>
          <Select options={BASE_TYPES.filter((x) => x === editing?.type || offered.other('base', x)).map((x) => ({ value: x, label: typeName(t, 'base', x) }))} />
        </Form.Item>
        <Form.Item name="gatewayId" label={t('col.gateway')} rules={[{ required: true, message: t('rule.required') }]}>
          <Select loading={gateways.isFetching} options={gatewayOptions} />
        </Form.Item>
        <Form.Item name="carrierId" label={t('col.carrier')}>
          <Select allowClear showSearch={{ filterOption: false, onSearch: setCarrierSearch }} loading={carriers.loading} options={carrierOptions} />
        </Form.Item>
        <Form.Item name="tz" label={t('col.tz')}>
          <Select options={timeZoneOptions} />
        </Form.Item>
        <Form.Item name="description" label={t('col.description')} rules={rules(t, { max: 250 })}>
          <Input.TextArea maxLength={250} rows={2} showCount />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}
