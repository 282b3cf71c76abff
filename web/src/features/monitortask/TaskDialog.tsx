/** A monitor task's interval and status (spec §3 Monitor task; §5: minutes, hours or days, at most 30 days). */
import { useEffect } from 'react';
import { App, Form, InputNumber, Radio, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { INTERVAL_UNITS, monitorTaskApi, type IntervalUnit, type MonitorTaskRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { serverFieldErrors } from '../sys/formRules';
import { defaultText, intervalValid } from './taskLabels';

interface Values {
  intervalValue: number;
  intervalUnit: IntervalUnit;
  status: 0 | 1;
}

const FIELDS = ['intervalValue', 'intervalUnit', 'status'] as const;

export function TaskDialog({ target, onClose, onDone }: { target: MonitorTaskRow | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('monitorTask');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const { saving, submit } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, FIELDS, {}));
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue({ intervalValue: target.intervalValue, intervalUnit: target.intervalUnit, status: target.status === 1 ? 1 : 0 });
  }, [target, form]);
  const save = () =>
    submit(async (v) => {
      await call(monitorTaskApi.update, { body: { customerId: target!.customerId, family: target!.family, intervalValue: v.intervalValue, intervalUnit: v.intervalUnit, status: v.status } });
      void message.success(t('msg.saved'));
      onDone();
      onClose();
    });
  return (
    <FormDialog
      open={!!target}
      title={target ? t('form.title', { task: t(`family.${target.family}`) }) : ''}
      okText={t('form.ok')}
      cancelText={t('form.cancel')}
      saving={saving}
      onSubmit={save}
      onCancel={onClose}
    >
      <Form form={form} name="monitorTaskForm" layout="vertical" requiredMark>
        {target && <p style={{ color: '#8c8c8c', marginTop: 0 }}>{t(`covers.${target.family}`)}</p>}
        <Space.Compact block>
          <Form.Item
            name="intervalValue"
            label={t('form.interval')}
            style={{ flex: 1 }}
            dependencies={['intervalUnit']}
            extra={target ? t('form.hint', { value: defaultText(t, target.family) }) : undefined}
            rules={[({ getFieldValue }) => ({ validator: async (_r, v) => (intervalValid(v, getFieldValue('intervalUnit')) ? undefined : Promise.reject(new Error(t('rule.interval')))) })]}
          >
            <InputNumber min={1} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="intervalUnit" label={t('form.unit')} style={{ width: 140, marginInlineStart: 12 }} rules={[{ required: true, message: t('rule.interval') }]}>
            <Select options={INTERVAL_UNITS.map((u) => ({ value: u, label: t(`unit.${u}`) }))} />
          </Form.Item>
        </Space.Compact>
        <Form.Item name="status" label={t('form.status')}>
          <Radio.Group
            options={[
              { value: 1, label: t('status.1') },
              { value: 0, label: t('status.0') },
            ]}
          />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}
