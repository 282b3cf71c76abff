import { Form, Input, Typography } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/**
 * The signature of a handling step (21 CFR Part 11 §11.200: two components, entered again for
 * every signing): the signed-in user's account and password, under a statement of what the
 * signature means. Nothing is filled in for the user: typing the account is part of signing.
 * The fields are `sign.account` and `sign.password` of the dialog's form. `meaningLabel`: the
 * meaning's words where they are not exception handling's (a collect record's approval).
 */
export function SignFields({ meaning, meaningLabel }: { meaning: string; meaningLabel?: string }) {
  const { t } = useTranslation('abnormal');
  return (
    <div data-testid="sign-fields" style={{ marginTop: 4, padding: '10px 12px 0', border: '1px solid #d6e4ff', borderRadius: 8, background: '#f6f9ff' }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, fontWeight: 600, marginBottom: 4 }}>
        <SafetyCertificateOutlined style={{ color: '#1677ff' }} />
        {t('sign.title')}
      </div>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>
        {t('sign.statement', { meaning: meaningLabel ?? t(`meaning.${meaning}`) })}
      </Typography.Paragraph>
      <div style={{ display: 'flex', gap: 12 }}>
        <Form.Item name={['sign', 'account']} label={t('sign.account')} rules={[{ required: true, whitespace: true, message: t('sign.accountRequired') }]} style={{ flex: 1, marginBottom: 12 }}>
          <Input autoComplete="off" maxLength={50} />
        </Form.Item>
        <Form.Item name={['sign', 'password']} label={t('sign.password')} rules={[{ required: true, message: t('sign.passwordRequired') }]} style={{ flex: 1, marginBottom: 12 }}>
          <Input.Password autoComplete="current-password" maxLength={100} />
        </Form.Item>
      </div>
    </div>
  );
}

/** A failed signing's field errors onto the form: `password`, `account` and `sign` name the signature's fields. */
export function signFieldErrors(details: Record<string, string> | undefined) {
  if (!details) return [];
  return Object.entries(details).flatMap(([k, msg]) => {
    if (k === 'password' || k === 'sign.password') return [{ name: ['sign', 'password'], errors: [msg] }];
    if (k === 'account' || k === 'sign.account') return [{ name: ['sign', 'account'], errors: [msg] }];
    if (k === 'sign') return [{ name: ['sign', 'password'], errors: [msg] }];
    return [{ name: [k.split('.')[0]], errors: [msg] }];
  });
}
