import { Alert, Form, Input, Modal, Radio, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { CHOSEN_MEANINGS, exceptionApi, exReasonApi, JUDGEMENTS, type ExceptionRow, type Judgement } from '@coldwatch/contract';
import { useAction, useCall } from '../../api/hooks';
import { reasonName } from './reasonName';
import { SignFields } from './SignFields';
import { signatureOf, useSignedStep } from './useSignedStep';

/** Handle several pending exceptions at once, or correct one processed exception's handling. */
export type HandleTarget = { mode: 'handle'; rows: ExceptionRow[] } | { mode: 'correct'; row: ExceptionRow };

interface Props {
  target: HandleTarget | null;
  onClose: () => void;
  onDone: () => void;
}

interface Values {
  reasonId?: number;
  measures: string;
  comment: string;
  judgement?: Judgement;
  excluded: boolean;
  excludedWhy: string;
  meaning: (typeof CHOSEN_MEANINGS)[number];
  sign: { account: string; password: string };
}

const INVALIDATES = [exceptionApi.page, exceptionApi.latest, exceptionApi.stats, exceptionApi.detail];
/** The form is long: items sit closer than antd's default so that dialog and signature fit a laptop screen. */
const ITEM = { marginBottom: 12 };

/**
 * The handling of exceptions (spec §3; docs/alarms.md "Handling and signatures"): a reason from
 * the customer's catalogue, the measures taken, a comment, the judgement (confirmed or
 * suspected abnormal), excluded with why, what the signature means, and the signature itself.
 * → PUT /service/exception/handle (several ids, all or none) or /correct (a new step).
 */
export function HandleDialog({ target, onClose, onDone }: Props) {
  const { t, i18n } = useTranslation('abnormal');
  const [form] = Form.useForm<Values>();
  const rows = !target ? [] : target.mode === 'handle' ? target.rows : [target.row];
  const customers = new Set(rows.map((r) => r.customerId));
  const customerId = rows[0]?.customerId;
  const reasons = useCall(exReasonApi.options, { query: { customerId } }, { enabled: !!target && customers.size === 1 });
  const excluded = Form.useWatch('excluded', form);
  const meaning = Form.useWatch('meaning', form) ?? 'reviewed';

  // A correction starts from the handling it corrects; its comment (why) is new.
  const { error, failed, done, validated } = useSignedStep(form, onDone, onClose, target, (tg) => {
    if (tg.mode !== 'correct') return;
    const r = tg.row;
    form.setFieldsValue({ reasonId: r.reasonId ?? undefined, measures: r.measures, judgement: r.judgement ?? undefined, excluded: r.excluded, excludedWhy: r.excludedWhy });
  });
  const handle = useAction(exceptionApi.handle, { success: t('handle.done', { count: rows.length }), invalidates: INVALIDATES, onDone: done, onFailed: failed });
  const correct = useAction(exceptionApi.correct, { success: t('handle.corrected'), invalidates: INVALIDATES, onDone: done, onFailed: failed });

  const submit = async () => {
    const v = target && (await validated());
    if (!target || !v) return;
    const common = {
      reasonId: v.reasonId!,
      measures: v.measures.trim(),
      comment: (v.comment ?? '').trim(),
      judgement: v.judgement!,
      excluded: !!v.excluded,
      excludedWhy: v.excluded ? (v.excludedWhy ?? '').trim() : '',
      meaning: v.meaning,
      sign: signatureOf(v.sign),
    };
    if (target.mode === 'handle') await handle.run({ body: { ids: target.rows.map((r) => r.id), ...common } });
    else await correct.run({ body: { id: target.row.id, ...common } });
  };

  const one = rows.length === 1 ? rows[0] : null;
  const title = target?.mode === 'correct' ? t('handle.correctTitle') : rows.length > 1 ? t('handle.titleMany', { count: rows.length }) : t('handle.title');
  return (
    <Modal
      open={!!target}
      title={title}
      width={620}
      style={{ top: '5vh' }}
      okText={t('handle.ok')}
      cancelText={t('handle.cancel')}
      okButtonProps={{ disabled: customers.size > 1 }}
      confirmLoading={handle.busy || correct.busy}
      onOk={() => void submit()}
      onCancel={onClose}
      // Above the detail drawer, which opens it too (both would stack at antd's 1000, the dialog under the drawer's mask).
      zIndex={1050}
      destroyOnHidden
      forceRender
      styles={{ body: { maxHeight: '78vh', overflowY: 'auto', overflowX: 'hidden', paddingInlineEnd: 4 } }}
    >
      <div style={{ marginBottom: 12, color: 'rgba(0,0,0,.55)' }}>
        {one
          ? t('handle.summary', { carrier: one.carrierName ?? '-', device: one.devNo ?? '-', category: t(`category.${one.category}`, { defaultValue: one.category }) })
          : t('handle.summaryMany', { count: rows.length })}
      </div>
      {customers.size > 1 && <Alert type="warning" showIcon title={t('handle.oneCustomer')} style={{ marginBottom: 12 }} />}
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Form form={form} name="handleForm" layout="vertical" initialValues={{ excluded: false, meaning: 'reviewed', comment: '', excludedWhy: '' }}>
        <Form.Item name="reasonId" label={t('handle.reason')} rules={[{ required: true, message: t('handle.reasonRequired') }]} style={ITEM}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            loading={reasons.isLoading}
            placeholder={t('handle.reasonPlaceholder')}
            options={(reasons.data ?? []).map((r) => ({ value: r.id, label: reasonName(r, i18n.language) }))}
          />
        </Form.Item>
        <Form.Item name="measures" label={t('handle.measures')} rules={[{ required: true, whitespace: true, message: t('handle.measuresRequired') }]} style={ITEM}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={250} showCount />
        </Form.Item>
        <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap' }}>
          <Form.Item name="judgement" label={t('handle.judgement')} rules={[{ required: true, message: t('handle.judgementRequired') }]} style={{ ...ITEM, flex: '1 1 260px' }}>
            <Radio.Group options={JUDGEMENTS.map((j) => ({ value: j, label: t(`judgement.${j}`) }))} />
          </Form.Item>
          <Form.Item name="meaning" label={t('handle.meaning')} style={ITEM}>
            <Radio.Group optionType="button" options={CHOSEN_MEANINGS.map((m) => ({ value: m, label: t(`meaning.${m}`) }))} />
          </Form.Item>
        </div>
        <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
          <Form.Item name="excluded" label={t('handle.excluded')} valuePropName="checked" tooltip={t('handle.excludedHelp')} style={ITEM}>
            <Switch />
          </Form.Item>
          {excluded && (
            <Form.Item name="excludedWhy" label={t('handle.excludedWhy')} rules={[{ required: true, whitespace: true, message: t('handle.excludedWhyRequired') }]} style={{ ...ITEM, flex: 1 }}>
              <Input maxLength={250} />
            </Form.Item>
          )}
        </div>
        <Form.Item
          name="comment"
          label={target?.mode === 'correct' ? t('handle.correctWhy') : t('handle.comment')}
          rules={target?.mode === 'correct' ? [{ required: true, whitespace: true, message: t('handle.correctWhyRequired') }] : []}
          style={ITEM}
        >
          <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={250} />
        </Form.Item>
        <SignFields meaning={meaning} />
      </Form>
    </Modal>
  );
}
