import { useEffect } from 'react';
import { Alert, Form, Input, Modal, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { CHOSEN_MEANINGS, printGroupApi, reportApi, type ReportRow } from '@coldwatch/contract';
import { useAction } from '../../api/hooks';
import { SignFields } from '../abnormal/SignFields';
import { useSignedStep } from '../abnormal/useSignedStep';

interface Values {
  comment: string;
  meaning: (typeof CHOSEN_MEANINGS)[number];
  sign: { account: string; password: string };
}

/**
 * Signs a report after review (docs/reports.md "Signing"): the exceptions' signature, account
 * and password entered again (SignFields, useSignedStep), meaning "reviewed" or "approved".
 * The server draws the report again with the signature and records the new file's SHA-256.
 */
export function ReportSignDialog({ report, onClose }: { report: ReportRow | null; onClose: () => void }) {
  const { t } = useTranslation('printer');
  const { t: ta } = useTranslation('abnormal');
  const [form] = Form.useForm<Values>();
  const meaning = Form.useWatch('meaning', form) ?? 'reviewed';
  const { error, setError, failed, done } = useSignedStep(form, () => undefined, onClose);
  const sign = useAction(reportApi.sign, { success: t('sign.done'), invalidates: [reportApi.page, printGroupApi.list], onDone: done, onFailed: failed });

  useEffect(() => {
    if (!report) return;
    form.resetFields();
    setError(null);
  }, [report, form, setError]);

  const submit = async () => {
    if (!report) return;
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setError(null);
    await sign.run({ body: { id: report.id, meaning: v.meaning, comment: (v.comment ?? '').trim(), sign: { account: v.sign.account.trim(), password: v.sign.password } } });
  };

  return (
    <Modal open={!!report} title={t('sign.title', { id: report?.id ?? '' })} okText={t('sign.ok')} cancelText={t('form.cancel')} confirmLoading={sign.busy} onOk={() => void submit()} onCancel={onClose} width={520} style={{ top: '8vh' }} destroyOnHidden forceRender>
      <div style={{ marginBottom: 12, color: 'rgba(0,0,0,.55)' }}>{t('sign.hint')}</div>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Form form={form} name="reportSignForm" layout="vertical" initialValues={{ comment: '', meaning: 'reviewed' }}>
        <Form.Item name="comment" label={t('sign.comment')}>
          <Input.TextArea rows={2} maxLength={250} showCount />
        </Form.Item>
        <Form.Item name="meaning" label={ta('handle.meaning')}>
          <Radio.Group optionType="button" options={CHOSEN_MEANINGS.map((m) => ({ value: m, label: ta(`meaning.${m}`) }))} />
        </Form.Item>
        <SignFields meaning={meaning} />
      </Form>
    </Modal>
  );
}
