/**
 * Switch relays (spec §4 Device switch): intelligent (follows the carrier's condition), manual
 * (on or off by hand) or direct (on or off, ignoring the condition), with a cancel time in
 * seconds (0 or blank: never). POST /service/relay/switch; refusals show under their field.
 */
import { useEffect } from 'react';
import { App, Form, InputNumber, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { relayApi, SWITCH_MODES, type RelayRow, type SwitchMode } from '@coldwatch/contract';
import { call } from '../../api/call';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { serverFieldErrors } from '../sys/formRules';

interface Values {
  mode: SwitchMode;
  on?: boolean;
  cancelTime?: number | null;
}

export function SwitchDialog({ relays, onClose, onDone }: { relays: RelayRow[] | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('relay');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const mode = Form.useWatch('mode', form);
  // A refusal of the selection itself (a stopped relay, intelligent without a carrier) comes as the toast.
  const { saving, submit } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, ['mode', 'on', 'cancelTime'], {}));
  useEffect(() => {
    if (!relays) return;
    form.resetFields();
    form.setFieldsValue({ mode: 'manual', on: true, cancelTime: null });
  }, [relays, form]);
  const save = () =>
    submit(async (v) => {
      const r = await call(relayApi.switch, { body: { ids: relays!.map((x) => x.id), mode: v.mode, on: v.mode === 'intelligent' ? undefined : v.on, cancelTime: v.cancelTime ?? null } });
      void message.success(t(r.published === r.switched ? 'msg.switched' : 'msg.queued', { count: r.switched }));
      onDone();
      onClose();
    });
  return (
    <FormDialog open={!!relays} title={t('switchTitle', { what: relays?.length === 1 ? relays[0].name : t('selected', { count: relays?.length ?? 0 }) })} okText={t('switch')} cancelText={t('cancel')} saving={saving} onSubmit={save} onCancel={onClose}>
      <Form form={form} name="switchForm" layout="vertical" requiredMark>
        <Form.Item name="mode" label={t('log.mode')} extra={t(`modeHelp.${mode ?? 'manual'}`)}>
          <Radio.Group optionType="button" options={SWITCH_MODES.map((m) => ({ value: m, label: t(`mode.${m}`) }))} />
        </Form.Item>
        {mode !== 'intelligent' && (
          <Form.Item name="on" label={t('log.target')} rules={[{ required: true, message: t('rule.on') }]}>
            <Radio.Group options={[{ value: true, label: t('on') }, { value: false, label: t('off') }]} />
          </Form.Item>
        )}
        <Form.Item name="cancelTime" label={t('log.cancelTime')} extra={t('cancelTimeHelp')} rules={[{ type: 'integer', min: 0, message: t('rule.cancelTime') }]}>
          <InputNumber precision={0} min={0} max={31536000} style={{ width: 200 }} suffix="s" />
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('switchNote')}
      </Typography.Paragraph>
    </FormDialog>
  );
}
