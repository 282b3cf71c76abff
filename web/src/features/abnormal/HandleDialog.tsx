import { useEffect, useState } from 'react';
import { Alert, App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../api/client';
import { errorMessage } from '../../app/errors';
import type { ExceptionRow } from './types';

interface Props {
  row: ExceptionRow | null;
  onClose: () => void;
  onDone: () => void;
}

/** Handle an exception: its reason and the measures taken → PUT /service/exception/handle. */
export function HandleDialog({ row, onClose, onDone }: Props) {
  const { t } = useTranslation('abnormal');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ reason: string; measures: string }>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

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
    setSaving(true);
    setError(null);
    try {
      await api.put('/service/exception/handle', { id: row.id, reason: v.reason.trim(), measures: v.measures.trim() });
      void message.success(t('handle.done'));
      onDone();
      onClose();
    } catch (e) {
      if (e instanceof ApiError && e.details) {
        form.setFields(Object.entries(e.details).map(([name, msg]) => ({ name: name as 'reason' | 'measures', errors: [msg] })));
      }
      setError(errorMessage(e, t));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={!!row}
      title={t('handle.title')}
      width={500}
      style={{ top: '8vh' }}
      okText={t('handle.ok')}
      cancelText={t('handle.cancel')}
      confirmLoading={saving}
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
