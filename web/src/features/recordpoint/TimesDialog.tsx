import { useEffect, useState } from 'react';
import { Button, Form, Modal, Space, TimePicker, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { RECORD_TIMES_MAX, RECORD_TIMES_MIN_GAP_MIN, recordMinute, recordPointApi, timesFault } from '@coldwatch/contract';
import { useAction, useCall } from '../../api/hooks';
import { CarrierSelect } from '../device/devicePickers';

interface Values {
  carrierId: number;
  times: (Dayjs | null)[];
}

/**
 * A carrier's record times (spec §5, §9): at most seven a day, 30 minutes apart around the
 * clock. The form hints with the contract's rule; the server decides.
 */
export function TimesDialog({ open, carrierId, onClose }: { open: boolean; carrierId?: number; onClose: () => void }) {
  const { t } = useTranslation('recordPoint');
  const [form] = Form.useForm<Values>();
  const chosen = Form.useWatch('carrierId', form);
  const [fault, setFault] = useState<string | null>(null);
  const current = useCall(recordPointApi.times, { query: { carrierId: chosen, iDisplayLength: 1 } }, { enabled: open && !!chosen });
  const save = useAction(recordPointApi.setTimes, { success: t('times.saved'), invalidates: [recordPointApi.page, recordPointApi.times], onDone: onClose });

  useEffect(() => {
    if (open) form.setFieldsValue({ carrierId, times: [] });
  }, [open, carrierId, form]);
  const row = current.data?.rows[0];
  useEffect(() => {
    if (row) form.setFieldValue('times', row.times.length ? row.times.map((x) => dayjs(x, 'HH:mm')) : [null]);
  }, [row, form]);

  const submit = async () => {
    const v = await form.validateFields();
    const times = v.times.filter((x): x is Dayjs => !!x).map((x) => x.format('HH:mm'));
    const f = timesFault(times.map(recordMinute));
    setFault(f);
    if (f) return;
    await save.run({ body: { carrierId: v.carrierId, times } });
  };

  return (
    <Modal open={open} title={t('times.title')} width={460} style={{ top: '8vh' }} okText={t('times.save')} cancelText={t('cancel')} confirmLoading={save.busy} onOk={() => void submit()} onCancel={onClose} destroyOnHidden forceRender>
      <Typography.Paragraph type="secondary">{t('times.hint', { max: RECORD_TIMES_MAX, gap: RECORD_TIMES_MIN_GAP_MIN })}</Typography.Paragraph>
      <Form form={form} name="recordTimesForm" layout="vertical">
        <Form.Item name="carrierId" label={t('col.carrier')} rules={[{ required: true, message: t('times.carrierRequired') }]}>
          <CarrierSelect open={open} />
        </Form.Item>
        <Form.List name="times">
          {(fields, { add, remove }) => (
            <Space direction="vertical" style={{ width: '100%' }}>
              {fields.map((f) => (
                <Space key={f.key}>
                  <Form.Item name={f.name} noStyle>
                    <TimePicker format="HH:mm" minuteStep={1} needConfirm={false} />
                  </Form.Item>
                  <Button icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={t('times.remove')} />
                </Space>
              ))}
              <Button icon={<PlusOutlined />} disabled={fields.length >= RECORD_TIMES_MAX} onClick={() => add(null)}>
                {t('times.add')}
              </Button>
            </Space>
          )}
        </Form.List>
        {fault && <Typography.Text type="danger">{t(`times.fault.${fault}`, { max: RECORD_TIMES_MAX, gap: RECORD_TIMES_MIN_GAP_MIN })}</Typography.Text>}
      </Form>
    </Modal>
  );
}
