import { useEffect } from 'react';
import { App, Form, Input, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { exReasonApi, exReasonCode, type ExReasonRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { serverFieldErrors, trimmed, zodRule } from '../sys/formRules';
import type { Option } from '../account/shared';

const FIELDS = ['code', 'nameZh', 'nameEn', 'sort', 'enabled', 'customerId'];

interface Values {
  customerId?: number;
  code: string;
  nameZh?: string;
  nameEn?: string;
  sort: number;
  enabled: boolean;
}

/**
 * Add or change an exception reason: code (letters, digits, _; unique in the customer's list,
 * 420), its name in Chinese and in English (one is enough), order, enabled. Platform users
 * choose the customer whose list it joins; the customer of a saved reason is fixed.
 */
export function ExReasonDialog({ target, customers, onClose, onDone }: { target: ExReasonRow | 'new' | null; customers?: Option[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('exreason');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const { saving, submit } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, FIELDS, { 420: 'code' }));
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue(target === 'new' ? { sort: 100, enabled: true } : target);
  }, [target, form]);
  const save = () =>
    submit(async (v) => {
      const body = { code: trimmed(v.code), nameZh: trimmed(v.nameZh), nameEn: trimmed(v.nameEn), sort: v.sort ?? 0, enabled: !!v.enabled };
      if (target === 'new') await call(exReasonApi.add, { body: { ...body, customerId: v.customerId } });
      else await call(exReasonApi.update, { body: { ...body, id: (target as ExReasonRow).id } });
      void message.success(target === 'new' ? t('msg.added') : t('msg.updated'));
      onDone();
      onClose();
    });
  const oneName = ({ getFieldValue }: { getFieldValue: (n: string) => unknown }) => ({
    validator: () => (trimmed(getFieldValue('nameZh') as string) || trimmed(getFieldValue('nameEn') as string) ? Promise.resolve() : Promise.reject(new Error(t('form.nameRequired')))),
  });
  return (
    <FormDialog open={!!target} title={target === 'new' ? t('form.addTitle') : t('form.editTitle')} okText={t('form.ok')} cancelText={t('form.cancel')} saving={saving} onSubmit={save} onCancel={onClose}>
      <Form form={form} name="exReasonForm" layout="vertical" requiredMark>
        {customers && target === 'new' && (
          <Form.Item name="customerId" label={t('form.customer')} rules={[{ required: true, message: t('form.customerRequired') }]}>
            <Select showSearch={{ optionFilterProp: 'label' }} options={customers} />
          </Form.Item>
        )}
        <Form.Item name="code" label={t('form.code')} rules={[{ required: true, message: t('form.codeRequired') }, zodRule(exReasonCode, t)]} extra={t('form.codeHelp')}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item name="nameZh" label={t('form.nameZh')} dependencies={['nameEn']} rules={[oneName, { max: 50, message: t('form.max50') }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="nameEn" label={t('form.nameEn')} dependencies={['nameZh']} rules={[oneName, { max: 50, message: t('form.max50') }]} extra={t('form.nameHelp')}>
          <Input maxLength={50} />
        </Form.Item>
        <div style={{ display: 'flex', gap: 24 }}>
          <Form.Item name="sort" label={t('form.sort')} rules={[{ required: true, message: t('form.sortRequired') }]} tooltip={t('form.sortHelp')}>
            <InputNumber min={0} max={9999} precision={0} style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="enabled" label={t('form.enabled')} valuePropName="checked" tooltip={t('form.enabledHelp')}>
            <Switch />
          </Form.Item>
        </div>
      </Form>
    </FormDialog>
  );
}
