/**
 * The picture code of the login and registration forms, offered when the server asks for one:
 * the field and its picture. The server keeps one code per picture, so a new picture (a click
 * on it, or after a failed attempt) empties the field.
 */
import { useState } from 'react';
import { Form, Input, Tooltip, type FormInstance } from 'antd';
import { SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

export interface Captcha {
  /** When the picture shown was asked for (its URL's cache breaker). */
  at: number;
  /** Asks for a new picture and empties the field. */
  refresh: () => void;
}

/** The picture of `form`'s field `name`. */
export function useCaptcha<V>(form: FormInstance<V>, name: keyof V & string): Captcha {
  const [at, setAt] = useState(() => Date.now());
  return {
    at,
    refresh: () => {
      setAt(Date.now());
      form.setFieldValue(name as Parameters<typeof form.setFieldValue>[0], '');
    },
  };
}

/** The code field (required) with its picture (`imgClass`: the registration card lays it out its own way). */
export function CaptchaField({ name, captcha, imgClass = 'cw-login-captcha' }: { name: string; captcha: Captcha; imgClass?: string }) {
  const { t } = useTranslation('login');
  return (
    <Form.Item label={t('code')} required>
      <div className="cw-login-code">
        <Form.Item name={name} noStyle rules={[{ required: true, whitespace: true, message: t('codeRequired') }]}>
          <Input prefix={<SafetyOutlined />} placeholder={t('codePlaceholder')} maxLength={8} autoComplete="off" />
        </Form.Item>
        <Tooltip title={t('codeRefresh')}>
          <img className={imgClass} src={`/service/user/captcha?t=${captcha.at}`} alt={t('codeAlt')} onClick={captcha.refresh} role="button" />
        </Tooltip>
      </div>
    </Form.Item>
  );
}
