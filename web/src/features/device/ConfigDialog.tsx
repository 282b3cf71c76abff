/**
 * Parameter configuration of sensors (spec §3 collection and network parameters, §5 rules):
 * one or several sensors of one type and one customer; only the fields filled in are sent
 * (`POST /service/sensor/config`), each device gets a command its gateway answers (the config
 * log, /OperateRecord, follows it). The fields a type has no use for are not shown.
 */
import { useEffect, useState } from 'react';
import { App, Alert, Form, Input, InputNumber, Segmented, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { collectParams, collectProblem, configApi, networkParams, radioOf, sensorMeasuresHumidity, type ConfigKind, type SensorRow, type SensorType } from '@coldwatch/contract';
import { call } from '../../api/call';
import { ApiError } from '../../api/client';
import { serverMessage, useServerMessages } from '../../app/serverMessages';
import { FormDialog } from '../../ui/FormDialog';

type Shape = Record<string, { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } }>;

/** The contract's rule of one parameter, with its message in the user's language; empty passes (nothing is sent). */
const ruleOf = (shape: Shape, name: string): Rule => ({
  validator: async (_r, value) => {
    if (value === undefined || value === null || value === '') return;
    const r = shape[name].safeParse(value);
    if (!r.success) throw new Error(serverMessage(r.error?.issues[0]?.message ?? 'errors.paramError'));
  },
});

const COLLECT = collectParams.shape as unknown as Shape;
const NETWORK = networkParams.shape as unknown as Shape;

export function ConfigDialog({ sensors, onClose, onDone }: { sensors: SensorRow[] | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('device');
  const serverText = useServerMessages();
  const { message } = App.useApp();
  const [form] = Form.useForm<Record<string, string | number | null | undefined>>();
  const [kind, setKind] = useState<ConfigKind>('collect');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!sensors) return;
    form.resetFields();
    setKind('collect');
  }, [sensors, form]);
  if (!sensors) return null;
  const type = sensors[0]?.type as SensorType;
  const radio = radioOf(type);
  const hum = sensorMeasuresHumidity(type);
  const reports = radio === 'lora' || radio === 'zeta';

  const num = (name: string, shape: Shape, extra?: string) => (
    <Form.Item key={name} name={name} label={t(`config.${name}`)} rules={[ruleOf(shape, name)]} extra={extra}>
      <InputNumber style={{ width: '100%' }} />
    </Form.Item>
  );
  const text = (name: string, extra?: string) => (
    <Form.Item key={name} name={name} label={t(`config.${name}`)} rules={[ruleOf(NETWORK, name)]} extra={extra}>
      <Input allowClear />
    </Form.Item>
  );
  const collectFields = [
    num('sampleInterval', COLLECT, t('config.seconds')),
    ...(radio === 'zigbee' ? [num('exceptionSampleInterval', COLLECT, t('config.exceptionHelp'))] : []),
    ...(reports ? [num('tempSampleInterval', COLLECT), num('tempMinReport', COLLECT), num('tempMaxReport', COLLECT)] : []),
    ...(reports && hum ? [num('humSampleInterval', COLLECT), num('humMinReport', COLLECT), num('humMaxReport', COLLECT)] : []),
    num('tempChange', COLLECT, '°C'),
    ...(hum ? [num('humChange', COLLECT, '%RH')] : []),
  ];
  const networkFields = [
    ...(radio === 'zigbee' ? [text('extPanId', t('config.hexHelp', { n: 16 })), num('channel', NETWORK), num('channelPage', NETWORK)] : []),
    ...(radio === 'lora' ? [text('devEui', t('config.hexHelp', { n: 10 })), text('appEui', t('config.hexHelp', { n: 16 })), text('appKey', t('config.hexHelp', { n: 32 }))] : []),
    text('channelMask', t('config.channelMaskHelp')),
    num('joinAttempt', NETWORK),
    num('accessInterval', NETWORK, t('config.accessHelp')),
    num('txPower', NETWORK),
  ];

  const save = async () => {
    let values: Record<string, string | number | null | undefined>;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const params = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null && v !== ''));
    if (!Object.keys(params).length) return void message.error(serverText('errors.config.nothing'));
    if (kind === 'collect') {
      const problem = collectProblem(type, params);
      if (problem) return form.setFields([{ name: problem.field, errors: [serverText(problem.error)] }]);
    }
    setSaving(true);
    try {
      const r = await call(configApi.issue, { body: { ids: sensors.map((s) => s.id), kind, [kind]: params } });
      void message.success(t('config.sent', { count: r.commands, published: r.published }));
      onDone();
      onClose();
    } catch (e) {
      // The server's rule names the field (collect.sampleInterval …): shown under it.
      const fields = e instanceof ApiError && e.details ? Object.entries(e.details).map(([k, v]) => ({ name: k.split('.').pop()!, errors: [String(v)] })) : [];
      const known = fields.filter((f) => form.getFieldInstance(f.name));
      if (known.length) form.setFields(known);
      else void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <FormDialog scrollBody open title={t('config.title', { count: sensors.length })} okText={t('config.send')} cancelText={t('form.cancel')} saving={saving} onSubmit={save} onCancel={onClose}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('config.devices', { list: sensors.map((s) => s.devNo).join(', '), type: t(`carrier:sensorType.${type}`) })}
      </Typography.Paragraph>
      <Segmented<ConfigKind>
        block
        value={kind}
        onChange={(k) => {
          setKind(k);
          form.resetFields();
        }}
        options={[
          { value: 'collect', label: t('config.collect') },
          { value: 'network', label: t('config.network') },
        ]}
        style={{ marginBottom: 12 }}
      />
      <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('config.onlyFilled')} />
      <Form form={form} name="configForm" layout="vertical">
        {kind === 'collect' ? collectFields : networkFields}
      </Form>
    </FormDialog>
  );
}
