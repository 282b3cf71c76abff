import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Segmented } from 'antd';
import { LockOutlined, QrcodeOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { authRefs, Code } from '@coldwatch/contract';
import { ApiError } from '../../api/client';
import { useAction, useCall } from '../../api/hooks';
import { errorMessage, reactionFor } from '../../app/errors';
import { applyStoredLanguage } from '../../app/i18n';
import { safeRedirect } from '../../app/reactions';
import { warmSignedIn } from '../../app/signedInParts';
import { session, SESSION_KEYS } from '../../app/session';
import type { UserRsp } from '../../app/auth';
import { LanguageToggle } from '../../app/shell/LanguageToggle';
import { LogoMark } from '../../ui/Logo';
import { LoginHero } from './LoginHero';
import { QrLoginPanel } from './QrLoginPanel';
import { asksForCode } from './askCode';
import { CaptchaField, useCaptcha } from './CaptchaField';
import './login.css';

/** What /register hands to /login after a successful registration. */
export interface RegisteredState {
  msg: string;
  account?: string;
}

/**
 * The page around the login and registration cards: the hero, the language switch, the
 * brand (small screens), the card's title and subtitle, then the card's content.
 */
export function LoginShell({ title, subtitle, wide, children }: { title: string; subtitle: string; wide?: boolean; children: ReactNode }) {
  const { t } = useTranslation('login');
  return (
    <div className="cw-login">
      <LoginHero />
      <section className={wide ? 'cw-login-side cw-register-side' : 'cw-login-side'}>
        <div className="cw-login-lang">
          <LanguageToggle />
        </div>
        <div className={wide ? 'cw-login-card cw-register-card' : 'cw-login-card'}>
          <div className="cw-login-mobile-brand">
            <LogoMark size={32} />
            <span>{t('common:product')}</span>
          </div>
          <h2>{title}</h2>
          <p className="cw-login-sub">{subtitle}</p>
          {children}
        </div>
      </section>
    </div>
  );
}

interface LoginForm {
  account: string;
  password: string;
  code?: string;
}

/** /login (spec §2): account, password and, when the server asks for it, the picture code. */
export default function LoginPage() {
  const { t } = useTranslation('login');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const qc = useQueryClient();
  const [form] = Form.useForm<LoginForm>();
  const captcha = useCaptcha(form, 'code');
  const [failure, setFailure] = useState<string>();
  const [mode, setMode] = useState<'account' | 'qr'>('account');
  // Back from /register: the server's success message, and the new administrator's account filled in.
  const registered = (useLocation().state as { registered?: RegisteredState } | null)?.registered;

  const options = useCall(authRefs.options, undefined, { staleTime: Infinity });
  // Set when a login answer asked for the code although the options did not (an account under attack).
  const [codeAsked, setCodeAsked] = useState(false);
  // When the options cannot be read, offer the field: the server decides.
  const needCode = codeAsked || (options.data ? options.data.captcha : options.isError);

  /** Signed in (by password or by a confirmed QR code): start a fresh client session. */
  const enter = useCallback(
    (user?: Pick<UserRsp, 'locale'> | { locale?: string | null }) => {
      session.clear();
      qc.clear();
      session.set(SESSION_KEYS.fromLogin, true);
      applyStoredLanguage(user?.locale);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    },
    [qc, navigate, params],
  );

  const login = useAction(authRefs.login, {
    success: false,
    onDone: (res) => enter(res.user),
    onFailed: (e) => {
      // Spec §8 500105: this browser is already signed in as this account (the shell toasts it): go home.
      if (e instanceof ApiError && e.code === Code.ALREADY_LOGGED_IN) {
        session.set(SESSION_KEYS.fromLogin, true);
        navigate('/home', { replace: true });
        return true;
      }
      // Offline / timeout are toasted by the shell; everything else is shown here.
      if (!(e instanceof ApiError) || reactionFor(e, t).kind === 'none') setFailure(errorMessage(e, t));
      if (asksForCode(e)) setCodeAsked(true);
      if (needCode || asksForCode(e)) captcha.refresh();
      return true;
    },
  });
  const busy = login.busy;

  // Once, at the first keystroke: the shell and the page the login leads to (signedInParts.ts).
  const warmed = useRef(false);
  const warm = () => {
    if (warmed.current) return;
    warmed.current = true;
    warmSignedIn(safeRedirect(params.get('redirect')));
  };

  const submit = (v: LoginForm) => {
    setFailure(undefined);
    void login.run({ body: { account: v.account.trim(), password: v.password, ...(needCode ? { code: v.code?.trim() } : {}) } });
  };

  return (
    <LoginShell title={t('title')} subtitle={t('subtitle')}>
      <Segmented
        block
        className="cw-login-mode"
        value={mode}
        onChange={(v) => setMode(v as 'account' | 'qr')}
        options={[
          { value: 'account', label: t('modeAccount'), icon: <UserOutlined /> },
          { value: 'qr', label: t('modeQr'), icon: <QrcodeOutlined /> },
        ]}
      />
      {mode === 'qr' ? (
        <QrLoginPanel onLoggedIn={enter} />
      ) : (
      <>
      {failure ? (
        <Alert className="cw-login-alert" type="error" showIcon title={failure} />
      ) : (
        registered && <Alert className="cw-login-alert" type="success" showIcon title={registered.msg} data-testid="register-success" />
      )}
      <Form<LoginForm>
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        onFinish={submit}
        onValuesChange={warm}
        autoComplete="on"
        initialValues={registered?.account ? { account: registered.account } : undefined}
      >
        <Form.Item name="account" label={t('account')} rules={[{ required: true, whitespace: true, message: t('accountRequired') }]}>
          <Input prefix={<UserOutlined />} placeholder={t('accountPlaceholder')} autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item name="password" label={t('password')} rules={[{ required: true, message: t('passwordRequired') }]}>
          <Input.Password prefix={<LockOutlined />} placeholder={t('passwordPlaceholder')} autoComplete="current-password" />
        </Form.Item>
        {needCode && <CaptchaField name="code" captcha={captcha} />}
        <Button type="primary" htmlType="submit" block loading={busy} className="cw-login-submit">
          {t('submit')}
        </Button>
      </Form>
      <div className="cw-login-switch">
        {t('noAccount')} <Link to="/register">{t('registerLink')}</Link>
      </div>
      </>
      )}
    </LoginShell>
  );
}
