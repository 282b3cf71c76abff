import { Alert, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { recordPointApi, type RecordDayRow, type RecordDecision } from '@coldwatch/contract';
import { useAction } from '../../api/hooks';
import { SignFields } from '../abnormal/SignFields';
import { signatureOf, useSignedStep } from '../abnormal/useSignedStep';

export interface SignTarget {
  row: RecordDayRow;
  decision: RecordDecision;
}

interface Values {
  comment: string;
  sign: { account: string; password: string };
}

/**
 * Approve or reject a carrier's day (spec §4), signed as an exception's handling is: account and
 * password again, under the statement of what the signature means. A rejection says why.
 */
export function SignRecordDialog({ target, onClose, onDone }: { target: SignTarget | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('recordPoint');
  const [form] = Form.useForm<Values>();
  const { error, failed, done, validated } = useSignedStep(form, onDone, onClose, target);
  const rejecting = target?.decision === 'rejected';
  const signRun = useAction(recordPointApi.sign, { success: t(rejecting ? 'sign.rejected' : 'sign.approved'), invalidates: [recordPointApi.page], onDone: done, onFailed: failed });

  const submit = async () => {
    const v = target && (await validated());
    if (!target || !v) return;
    await signRun.run({
      body: { carrierId: target.row.carrierId, day: target.row.day, decision: target.decision, comment: (v.comment ?? '').trim(), sign: signatureOf(v.sign) },
    });
  };

  return (
    <Modal
      open={!!target}
      title={target ? t(rejecting ? 'sign.rejectTitle' : 'sign.approveTitle', { carrier: target.row.carrierName, day: target.row.day }) : ''}
      width={520}
      style={{ top: '8vh' }}
      okText={t(rejecting ? 'sign.reject' : 'sign.approve')}
      cancelText={t('cancel')}
      okButtonProps={rejecting ? { danger: true } : undefined}
      confirmLoading={signRun.busy}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Form form={form} name="recordSignForm" layout="vertical" initialValues={{ comment: '' }}>
        <Form.Item
          name="comment"
          label={t(rejecting ? 'sign.why' : 'sign.comment')}
          rules={rejecting ? [{ required: true, whitespace: true, message: t('sign.whyRequired') }] : []}
        >
          <Input.TextArea rows={3} maxLength={250} showCount />
        </Form.Item>
        <SignFields meaning={target?.decision ?? 'approved'} meaningLabel={t(`state.${target?.decision ?? 'approved'}`)} />
      </Form>
    </Modal>
  );
}
