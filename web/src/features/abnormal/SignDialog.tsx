import { Alert, Form, Input, Modal, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { CHOSEN_MEANINGS, exceptionApi, type ExceptionRow } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { SignFields } from './SignFields';
import { signatureOf, useSignedStep } from './useSignedStep';

/** Close processed exceptions (signed "closed"), or add a signed comment to one exception. */
export type SignTarget = { mode: 'close'; rows: ExceptionRow[] } | { mode: 'comment'; row: ExceptionRow };

interface Values {
  comment: string;
  meaning: (typeof CHOSEN_MEANINGS)[number];
  sign: { account: string; password: string };
}

const INVALIDATES = [exceptionApi.page, exceptionApi.latest, exceptionApi.stats, exceptionApi.detail];

/**
 * The two signed steps without a handling's fields: a close (spec §4: processed and over, all
 * or none; the signature means "closed"; a comment is optional) → PUT /service/exception/close,
 * and a comment on an exception in any state → POST /service/exception/comment.
 */
export function SignDialog({ target, onClose, onDone }: { target: SignTarget | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('abnormal');
  const [form] = Form.useForm<Values>();
  const meaning = Form.useWatch('meaning', form) ?? 'reviewed';
  const { error, failed, done, validated } = useSignedStep(form, onDone, onClose, target);
  const count = target?.mode === 'close' ? target.rows.length : 1;
  const close = useAction(exceptionApi.close, { success: t('close.done', { count }), invalidates: INVALIDATES, onDone: done, onFailed: failed });
  const comment = useAction(exceptionApi.comment, { success: t('comment.done'), invalidates: INVALIDATES, onDone: done, onFailed: failed });

  const submit = async () => {
    const v = target && (await validated());
    if (!target || !v) return;
    const sign = signatureOf(v.sign);
    if (target.mode === 'close') await close.run({ query: { ids: idList(target.rows.map((r) => r.id)) }, body: { comment: (v.comment ?? '').trim(), sign } });
    else await comment.run({ body: { id: target.row.id, comment: v.comment.trim(), meaning: v.meaning, sign } });
  };

  const closing = target?.mode === 'close';
  return (
    <Modal
      open={!!target}
      title={closing ? t('close.title', { count }) : t('comment.title')}
      width={520}
      style={{ top: '8vh' }}
      okText={closing ? t('close.ok') : t('comment.ok')}
      cancelText={t('handle.cancel')}
      okButtonProps={closing ? { danger: true } : undefined}
      confirmLoading={close.busy || comment.busy}
      onOk={() => void submit()}
      onCancel={onClose}
      // Above the detail drawer, which opens it too (both would stack at antd's 1000, the dialog under the drawer's mask).
      zIndex={1050}
      destroyOnHidden
      forceRender
    >
      {closing && <div style={{ marginBottom: 12, color: 'rgba(0,0,0,.55)' }}>{t('close.hint')}</div>}
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Form form={form} name="signForm" layout="vertical" initialValues={{ comment: '', meaning: 'reviewed' }}>
        <Form.Item
          name="comment"
          label={closing ? t('close.comment') : t('comment.text')}
          rules={closing ? [] : [{ required: true, whitespace: true, message: t('comment.required') }]}
        >
          <Input.TextArea rows={3} maxLength={250} showCount />
        </Form.Item>
        {!closing && (
          <Form.Item name="meaning" label={t('handle.meaning')}>
            <Radio.Group optionType="button" options={CHOSEN_MEANINGS.map((m) => ({ value: m, label: t(`meaning.${m}`) }))} />
          </Form.Item>
        )}
        <SignFields meaning={closing ? 'closed' : meaning} />
      </Form>
    </Modal>
  );
}
