import { useEffect } from 'react';
import { Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { rules, serverFieldErrors, trimmed } from '../sys/formRules';

export interface TypeTarget {
  name: string;
  enabled: boolean;
  remark: string;
}

interface Values {
  enabled: boolean;
  remark?: string;
}

/** Offered or not, and the note, of one device or carrier type. */
export function TypeDialog({ target, onClose, onSave }: { target: TypeTarget | null; onClose: () => void; onSave: (v: { enabled: boolean; remark: string }) => Promise<void> }) {
  const { t } = useTranslation('type');
  const [form] = Form.useForm<Values>();
  const { saving, submit } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, ['enabled', 'remark'], {}));
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue({ enabled: target.enabled, remark: target.remark });
  }, [target, form]);
  const save = () =>
    submit(async (v) => {
      await onSave({ enabled: v.enabled, remark: trimmed(v.remark) });
      onClose();
    });
  return (
    <FormDialog open={!!target} title={t('editTitle', { name: target?.name ?? '' })} okText={t('form.ok')} cancelText={t('form.cancel')} saving={saving} onSubmit={save} onCancel={onClose} form={form} formName="typeForm">
      <Form.Item name="enabled" label={t('form.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="remark" label={t('form.remark')} rules={rules(t, { max: 250 })}>
        <Input.TextArea maxLength={250} rows={3} showCount />
      </Form.Item>
    </FormDialog>
  );
}
