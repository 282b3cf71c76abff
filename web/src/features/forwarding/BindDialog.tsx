/**
 * A forward setting (spec §3 "Forward setting": a carrier's forwarding setting, a sensor's
 * forwarding gateway): a carrier or a sensor, sent to a server or as a platform's. Forwarding
 * starts from the moment it is saved; exceptions go too when chosen.
 */
import { useMemo, useState } from 'react';
import { App, Form, Radio, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { forwardingApi, sensorApi } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { CarrierSelect } from '../device/devicePickers';
import { serverFieldErrors } from '../sys/formRules';

interface Values {
  target: string;
  subject: 'carrier' | 'sensor';
  carrierId?: number;
  sensorId?: number;
  exceptions: boolean;
}

function SensorSelect({ open, ...select }: { open: boolean; id?: string; value?: number; onChange?: (v: number) => void }) {
  const [search, setSearch] = useState('');
  const q = useCall(sensorApi.page, { query: { iDisplayLength: 100, devNo: search || undefined } }, { enabled: open });
  const options = useMemo(() => (q.data?.rows ?? []).map((s) => ({ value: s.id, label: s.devNo })), [q.data]);
  return <Select {...select} showSearch={{ filterOption: false, onSearch: setSearch }} loading={q.isFetching} options={options} />;
}

export function BindDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('forwarding');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const targets = useCall(forwardingApi.targets, {}, { enabled: open });
  const subject = Form.useWatch('subject', form);
  const { saving, submit } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, ['carrierId', 'sensorId', 'serverId'], { 500000: 'target' }));
  const save = () =>
    submit(async (v) => {
      const [kind, id] = v.target.split(':');
      await call(forwardingApi.bindAdd, {
        body: {
          ...(kind === 'server' ? { serverId: Number(id) } : { platformId: Number(id) }),
          ...(v.subject === 'carrier' ? { carrierId: v.carrierId } : { sensorId: v.sensorId }),
          exceptions: v.exceptions,
          enabled: true,
        },
      });
      void message.success(t('msg.added'));
      form.resetFields();
      onDone();
      onClose();
    });
  const options = (targets.data ?? []).map((x) => ({ value: `${x.kind}:${x.id}`, label: `${t(`bind.kind.${x.kind}`)} · ${x.name}` }));
  return (
    <FormDialog
      open={open}
      title={t('bind.addTitle')}
      okText={t('form.ok')}
      cancelText={t('form.cancel')}
      saving={saving}
      onSubmit={save}
      onCancel={onClose}
      form={form}
      formName="forwardBindForm"
    >
      <Form.Item name="target" label={t('bind.target')} rules={[{ required: true, message: t('rule.required') }]}>
        <Select options={options} />
      </Form.Item>
      <Form.Item name="subject" label={t('bind.subject')} initialValue="carrier">
        <Radio.Group optionType="button" options={[{ value: 'carrier', label: t('bind.carrier') }, { value: 'sensor', label: t('bind.sensor') }]} />
      </Form.Item>
      {subject !== 'sensor' ? (
        <Form.Item name="carrierId" label={t('bind.carrier')} rules={[{ required: true, message: t('rule.required') }]} extra={t('bind.carrierHelp')}>
          <CarrierSelect open={open} />
        </Form.Item>
      ) : (
        <Form.Item name="sensorId" label={t('bind.sensor')} rules={[{ required: true, message: t('rule.required') }]}>
          <SensorSelect open={open} />
        </Form.Item>
      )}
      <Form.Item name="exceptions" label={t('bind.exceptions')} valuePropName="checked" initialValue={false} extra={t('bind.exceptionsHelp')}>
        <Switch />
      </Form.Item>
    </FormDialog>
  );
}
