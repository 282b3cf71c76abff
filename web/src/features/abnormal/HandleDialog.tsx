import { useEffect, useState } from 'react';
import { Alert, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { exceptionApi, type ExceptionRow } from '@coldwatch/contract';
import { ApiError } from '../../api/client';
import { useAction } from '../../api/hooks';
import { errorMessage } from '../../app/errors';

interface Props {
  row: ExceptionRow | null;
  onClose: () => void;
  onDone: () => void;
}

/** Handle an exception: its reason and the measures taken → PUT /service/exception/handle. */
export function HandleDialog({ row, onClose, onDone }: Props) {
  const { t } = useTranslation('abnormal');
  const [form] = Form.useForm<{ reason: string; measures: string }>();
  const [error, setError] = useState<string | null>(null);
  const handle = useAction(exceptionApi.handle, {
    success: t('handle.done'),
    invalidates: [exceptionApi.page, exceptionApi.latest, exceptionApi.stats],
    onDone: () => {
      onDone();
      onClose();
    },
    onFailed: (e) => {
      if (e instanceof ApiError && e.details) {
        form.setFields(Object.entries(e.details).map(([name, msg]) => ({ name: name as 'reason' | 'measures', errors: [msg] })));
      }
      setError(errorMessage(e, t));
      return true;
    },
  });

  useEffect(() => {
    if (row) {
      form.setFieldsValue({ reason: row.reason ?? '', measures: row.measures ?? '' });
      setError(null);
    }
  }, [row, form]);

  const submit = async () => {
    if (!row) return;
    let v: { reason: string; measures: string };
    try {
      v = await form.validateFields();
    } catch {
      return; // the form shows what is missing
    }
    setError(null);
    await handle.run({ body: { id: row.id, reason: v.reason.trim(), measures: v.measures.trim() } });
  };

  return (
    <Modal
      open={!!row}
      title={t('handle.title')}
      width={500}
      style={{ top: '8vh' }}
      okText={t('handle.ok')}
      cancelText={t('handle.cancel')}
      confirmLoading={handle.busy}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      {row && (
        <div style={{ marginBottom: 12, color: 'rgba(0,0,0,.55)' }}>
          {t('handle.summary', { carrier: row.carrierName ?? '-', device: row.devNo ?? '-', category: t(`category.${row.category}`, { defaultValue: row.category }) })}
        </div>
      )}
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical">
        <Form.Item name="reason" label={t('handle.reason')} rules={[{ required: true, whitespace: true, message: t('handle.reasonRequired') }, { max: 250 }]}>
          <Input.TextArea rows={3} maxLength={250} showCount />
        </Form.Item>
        <Form.Item name="measures" label={t('handle.measures')} rules={[{ required: true, whitespace: true, message: t('handle.measuresRequired') }, { max: 250 }]}>
          <Input.TextArea rows={3} maxLength={250} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
