import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { onApiError } from '../api/client';
import { ERROR_TOAST_SECONDS, reactionFor } from './errors';
import { session, SESSION_KEYS } from './session';

export const loginPath = (redirect?: string) =>
  redirect && redirect !== '/' && !redirect.startsWith('/login') ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login';

/** A redirect target from the query: a path of this app, never another origin or the login page. */
export function safeRedirect(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/login')) return '/home';
  return raw;
}

/** The global, session-level reactions of spec §8 to failed calls; mounted once inside the router. */
export function SessionReactions() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const location = useLocation();
  const qc = useQueryClient();
  const where = useRef(location);
  where.current = location;
  const leaving = useRef(false);
  const lastToast = useRef({ text: '', at: 0 });

  useEffect(() => {
    const off = onApiError((e) => {
      const r = reactionFor(e, t);
      if (r.kind === 'none') return;
      const onLogin = where.current.pathname === '/login';
      // Opening the app without a session is not an expired session: go to login quietly.
      const quiet = r.kind === 'login' && r.delayMs === 0 && !session.get(SESSION_KEYS.pageInfo);
      const text = quiet ? undefined : r.text;
      const now = Date.now();
      // Many calls fail together when a session ends: one toast, one move.
      if (text && (text !== lastToast.current.text || now - lastToast.current.at > 1500) && !(onLogin && r.kind === 'login')) {
        lastToast.current = { text, at: now };
        void message.error({ content: text, duration: ERROR_TOAST_SECONDS, key: 'session-reaction' });
      }
      if (r.kind === 'home' && !onLogin) navigate('/home');
      if (r.kind === 'login' && !onLogin && !leaving.current) {
        leaving.current = true;
        const { pathname, search } = where.current;
        setTimeout(() => {
          session.clear();
          qc.clear();
          leaving.current = false;
          navigate(loginPath(pathname + search), { replace: true });
        }, r.delayMs);
      }
    });
    return () => void off();
  }, [t, message, navigate, qc]);
  return null;
}
