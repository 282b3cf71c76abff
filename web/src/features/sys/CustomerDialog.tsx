import { useEffect, useState } from 'react';
import { App, Checkbox, Col, Form, Input, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { areaCode, customerApi, customerCode, email, customerPhone, registerPassword, userAccount, type CustomerType, type OrgType } from '@coldwatch/contract';
import { call } from '../../api/call';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { FormSection } from '../../ui/FormSection';
import { CUSTOMER_CODE_FIELDS, matches, rules, serverFieldErrors, trimmed, zodRule } from './formRules';
import { CUSTOMER_STATUS, CUSTOMER_TYPES, ORG_TYPES, type CustomerRow } from './customerTypes';

interface Props {
  /** null = closed; 'new' = add; a row = edit. */
  target: CustomerRow | 'new' | null;
  onClose: () => void;
  onDone: () => void;
}

interface Values {
  name: string;
  shortName?: string;
  code: string;
  type: CustomerType;
  orgType: OrgType;
  status: number;
  area?: string;
  areaCode?: string;
  address?: string;
  contact?: string;
  phone?: string;
  email?: string;
  notify: string[];
  description?: string;
  account?: string;
  password?: string;
}

const FIELDS = ['name', 'shortName', 'code', 'type', 'orgType', 'status', 'area', 'areaCode', 'address', 'contact', 'phone', 'email', 'notify', 'description', 'account', 'password'];

/** Partial-success answers of customer create (spec §8): 201, 202, 203. */
const PARTIAL: Record<number, string> = { 201: 'msg.created201', 202: 'msg.created202', 203: 'msg.created203' };

/** Add or edit a customer (spec §3 Customer, §5 rules); adding also creates its administrator. */
export function CustomerDialog({ target, onClose, onDone }: Props) {
  const { t } = useTranslation('customer');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const { saving, submit: save } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, FIELDS, CUSTOMER_CODE_FIELDS));
  const isNew = target === 'new';
  const [loadedId, setLoadedId] = useState<number | null>(null);

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    if (target === 'new') {
      form.setFieldsValue({ type: 'customer', orgType: '09', status: CUSTOMER_STATUS.active, notify: ['email'] });
      setLoadedId(null);
      return;
    }
    const fill = (c: CustomerRow) => form.setFieldsValue({ ...c, notify: [c.notifyEmail && 'email', c.notifySms && 'sms'].filter((x): x is string => !!x) });
    fill(target);
    setLoadedId(target.id);
    // The list row may be partial: the detail has every field.
    call(customerApi.detail, { query: { id: target.id } }).then(fill, () => undefined);
  }, [target, form]);

  const submit = () =>
    save(async (v) => {
      const body = {
        name: trimmed(v.name),
        shortName: trimmed(v.shortName),
        code: trimmed(v.code),
        orgType: v.orgType,
        area: trimmed(v.area),
        areaCode: trimmed(v.areaCode),
        address: trimmed(v.address),
        contact: trimmed(v.contact),
        phone: trimmed(v.phone),
        email: trimmed(v.email),
        description: trimmed(v.description),
        notifyEmail: v.notify.includes('email'),
        notifySms: v.notify.includes('sms'),
      };
      if (isNew) {
        const res = await call(customerApi.add, { body: { ...body, type: v.type, account: trimmed(v.account), password: v.password ?? '' } });
        const partial = PARTIAL[res.code];
        if (partial) void message.warning(t(partial));
        else void message.success(t('msg.added'));
      } else {
        // The type is fixed at creation and not part of an update.
        await call(customerApi.update, { body: { ...body, id: loadedId! } });
        void message.success(t('msg.updated'));
      }
      onDone();
      onClose();
    });

  const req = (max?: number) => rules(t, { required: true, max });
  const opt = (max: number) => rules(t, { max });

  return (
    <FormDialog
      open={!!target}
      title={isNew ? t('form.addTitle') : t('form.editTitle')}
      width={760}
      okText={t('form.ok')}
      cancelText={t('form.cancel')}
      saving={saving}
      scrollBody
      onSubmit={submit}
      onCancel={onClose}
      form={form}
      formName="customerForm"
    >
      <FormSection title={t('form.basic')} first>
        <Col span={12}>
          <Form.Item name="name" label={t('form.name')} rules={req(50)}>
            <Input maxLength={50} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="shortName" label={t('form.shortName')} rules={opt(30)}>
            <Input maxLength={30} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="code" label={t('form.code')} tooltip={t('form.codeHint')} rules={[...rules(t, { required: true }), zodRule(customerCode, t)]} validateFirst>
            <Input maxLength={20} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="orgType" label={t('form.orgType')} rules={[{ required: true, message: t('rule.required') }]}>
            <Select options={ORG_TYPES.map((o) => ({ value: o, label: `${o} ${t(`orgType.${o}`)}` }))} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="type" label={t('form.type')} rules={[{ required: true, message: t('rule.required') }]}>
            <Radio.Group disabled={!isNew} options={CUSTOMER_TYPES.map((c) => ({ value: c, label: t(`type.${c}`) }))} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="status" label={t('form.status')}>
            <Radio.Group
              disabled
              options={[CUSTOMER_STATUS.active, CUSTOMER_STATUS.cancelled].map((s) => ({ value: s, label: t(`status.${s}`) }))}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="area" label={t('form.area')} rules={opt(120)}>
            <Input maxLength={120} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="areaCode" label={t('form.areaCode')} rules={[zodRule(areaCode, t, { optional: true })]}>
            <Input maxLength={20} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="address" label={t('form.address')} rules={opt(255)}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
      </FormSection>
      <FormSection title={t('form.contactPart')}>
        <Col span={12}>
          <Form.Item name="contact" label={t('form.contact')} rules={opt(30)}>
            <Input maxLength={30} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="phone" label={t('form.phone')} rules={[zodRule(customerPhone, t, { optional: true })]}>
            <Input maxLength={20} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="email" label={t('form.email')} rules={[matches(email, t('rule.email')), ...opt(100)]}>
            <Input maxLength={100} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="notify" label={t('form.notify')}>
            <Checkbox.Group options={[{ value: 'email', label: t('notify.email') }, { value: 'sms', label: t('notify.sms') }]} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="description" label={t('form.description')} rules={opt(250)}>
            <Input.TextArea rows={2} maxLength={250} showCount />
          </Form.Item>
        </Col>
      </FormSection>
      {isNew && (
        <FormSection title={t('form.adminPart')} hint={t('form.adminHint')}>
          <Col span={12}>
            <Form.Item name="account" label={t('form.account')} rules={[...rules(t, { required: true }), zodRule(userAccount, t)]} validateFirst>
              <Input maxLength={50} autoComplete="off" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="password"
              label={t('form.password')}
              tooltip={t('form.passwordHint')}
              rules={[...rules(t, { required: true }), zodRule(registerPassword, t)]}
              validateFirst
            >
              <Input.Password maxLength={30} autoComplete="new-password" />
            </Form.Item>
          </Col>
        </FormSection>
      )}
    </FormDialog>
  );
}
