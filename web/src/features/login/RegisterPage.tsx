import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert, Button, Col, Form, Input, Row, Select } from 'antd';
import { BankOutlined, LockOutlined, MailOutlined, PhoneOutlined, TagOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { authApi, customerApi, customerCode, customerPhone, email as emailRule, name as nameRule, ORG_TYPES, orgType, registerPassword, userAccount, type RegisterBody } from '@coldwatch/contract';
import { ApiError } from '../../api/client';
import { useAction, useCall } from '../../api/hooks';
import { errorMessage, reactionFor } from '../../app/errors';
import { codeField, fieldErrors, trimmed, zodRule } from '../sys/formRules';
import { CaptchaField, useCaptcha } from './CaptchaField';
import { LoginShell, type RegisteredState } from './LoginPage';
import './login.css';

/** Empty values are left to the `required` rule (one message per field). */
const OPT = { optional: true };

type RegisterForm = Omit<RegisterBody, 'captcha'> & { captcha?: string };

/** Fields of the form, for the server's `result.errors`. */
export const REGISTER_FIELDS = ['name', 'code', 'orgType', 'contact', 'phone', 'email', 'account', 'password', 'confirmPassword', 'captcha'] as const;

/** §8 registration answers that name one field (the administrator's mobile and e-mail are the company's phone and e-mail). */
export const REGISTER_CODE_FIELDS: Record<number, string> = { 406: 'code', 410: 'orgType', 416: 'account', 418: 'name', 420: 'code', 421: 'email', 422: 'phone' };

/** /register (public): a new company, its administrator account and password (spec §5 registration rules). */
export default function RegisterPage() {
  const { t } = useTranslation('login');
  const navigate = useNavigate();
  const [form] = Form.useForm<RegisterForm>();
  const captcha = useCaptcha(form, 'captcha');
  const [failure, setFailure] = useState<string>();

  const options = useCall(authApi.options, undefined, { staleTime: Infinity });
  // When the options cannot be read, offer the field: the server decides.
  const needCode = options.data ? options.data.captcha : options.isError;

  const register = useAction(customerApi.register, {
    success: false,
    // The server's answer is 'Registration success, please log in' (errors.customer.registered); the same text from our catalogue.
    onDone: (res) => navigate('/login', { replace: true, state: { registered: { msg: t('register.success'), account: res.account } } satisfies { registered: RegisteredState } }),
    onFailed: (e) => {
      const fields = [...fieldErrors(e, REGISTER_FIELDS), ...codeField(e, REGISTER_CODE_FIELDS)];
      if (fields.length) form.setFields(fields as never);
      else if (!(e instanceof ApiError) || reactionFor(e, t).kind === 'none') setFailure(errorMessage(e, t));
      if (needCode) captcha.refresh();
      return true;
    },
  });
  const busy = register.busy;

  const submit = (v: RegisterForm) => {
    setFailure(undefined);
    void register.run({
      body: {
        name: trimmed(v.name),
        code: trimmed(v.code),
        orgType: v.orgType,
        contact: trimmed(v.contact),
        phone: trimmed(v.phone),
        email: trimmed(v.email),
        account: trimmed(v.account),
        password: v.password,
        confirmPassword: v.confirmPassword,
        ...(needCode ? { captcha: trimmed(v.captcha) } : {}),
      },
    });
  };

  const half = { xs: 24, sm: 12 };

  return (
    <LoginShell title={t('register.title')} subtitle={t('register.subtitle')} wide>
      {failure && <Alert className="cw-login-alert" type="error" showIcon title={failure} />}
      <Form<RegisterForm> form={form} layout="vertical" requiredMark onFinish={submit} autoComplete="off" className="cw-register-form" scrollToFirstError>
        <div className="cw-register-group">{t('register.company')}</div>
        <Row gutter={16}>
          <Col span={24}>
            <Form.Item name="name" label={t('register.name')} rules={[{ required: true, whitespace: true, message: t('register.nameRequired') }, zodRule(nameRule(50), t, OPT)]}>
              <Input prefix={<BankOutlined />} maxLength={50} placeholder={t('register.namePlaceholder')} autoFocus />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="code"
              label={t('register.code')}
              tooltip={t('rule.codeInvalid')}
              rules={[{ required: true, whitespace: true, message: t('register.codeRequired') }, zodRule(customerCode, t, OPT)]}
            >
              <Input prefix={<TagOutlined />} maxLength={20} placeholder={t('register.codePlaceholder')} />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="orgType" label={t('register.orgType')} rules={[{ required: true, message: t('register.orgTypeRequired') }, zodRule(orgType, t, OPT)]}>
              <Select placeholder={t('register.orgTypePlaceholder')} options={ORG_TYPES.map((o) => ({ value: o, label: t(`register.org.${o}`) }))} />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="contact" label={t('register.contact')} rules={[{ required: true, whitespace: true, message: t('register.contactRequired') }, zodRule(nameRule(30), t, OPT)]}>
              <Input prefix={<UserOutlined />} maxLength={30} placeholder={t('register.contactPlaceholder')} />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="phone" label={t('register.phone')} rules={[{ required: true, whitespace: true, message: t('register.phoneRequired') }, zodRule(customerPhone, t, OPT)]}>
              <Input prefix={<PhoneOutlined />} maxLength={20} placeholder={t('register.phonePlaceholder')} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="email" label={t('register.email')} rules={[{ required: true, whitespace: true, message: t('register.emailRequired') }, zodRule(emailRule, t, OPT)]}>
              <Input prefix={<MailOutlined />} maxLength={100} placeholder={t('register.emailPlaceholder')} />
            </Form.Item>
          </Col>
        </Row>
        <div className="cw-register-group">{t('register.admin')}</div>
        <Row gutter={16}>
          <Col span={24}>
            <Form.Item
              name="account"
              label={t('register.account')}
              tooltip={t('rule.account')}
              rules={[{ required: true, whitespace: true, message: t('register.accountRequired') }, zodRule(userAccount, t, OPT)]}
            >
              <Input prefix={<UserOutlined />} maxLength={50} placeholder={t('register.accountPlaceholder')} autoComplete="username" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="password"
              label={t('register.password')}
              tooltip={t('rule.password')}
              rules={[{ required: true, message: t('register.passwordRequired') }, zodRule(registerPassword, t, OPT)]}
            >
              <Input.Password prefix={<LockOutlined />} maxLength={30} placeholder={t('register.passwordPlaceholder')} autoComplete="new-password" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="confirmPassword"
              label={t('register.confirmPassword')}
              dependencies={['password']}
              rules={[
                { required: true, message: t('register.confirmRequired') },
                ({ getFieldValue }) => ({
                  validator: (_, value) =>
                    !value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('rule.passwordMismatch'))),
                }),
              ]}
            >
              <Input.Password prefix={<LockOutlined />} maxLength={30} placeholder={t('register.confirmPlaceholder')} autoComplete="new-password" />
            </Form.Item>
          </Col>
          {needCode && (
            <Col span={24}>
              <CaptchaField name="captcha" captcha={captcha} imgClass="cw-login-captcha cw-register-captcha" />
            </Col>
          )}
        </Row>
        <Button type="primary" htmlType="submit" size="large" block loading={busy} className="cw-login-submit">
          {t('register.submit')}
        </Button>
      </Form>
      <div className="cw-login-switch">
        {t('register.haveAccount')} <Link to="/login">{t('register.loginLink')}</Link>
      </div>
    </LoginShell>
  );
}
