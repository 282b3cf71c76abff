import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchPageInfo, logout, PAGE_INFO_KEY, storePageInfo, type PageInfo } from './auth';
import { applyStoredLanguage } from './i18n';
import { ERROR_TOAST_SECONDS, errorMessage } from './errors';
import { session, SESSION_KEYS } from './session';
import { SCENE_TREE_KEY } from '../ui/sceneTreeKey';
import { loadDownloadProgress } from '../features/download/watch';

/** How old the boot's page info may be for the first navigation to use it. */
const PRELOAD_FRESH_MS = 3_000;

/**
 * The login guard of spec §4: on every navigation to a page that needs a session, page info
 * is fetched; no functions → logout and 'no access permission'; otherwise user, user type,
 * funcs and the auth map are kept (query cache + session storage). Coming from login, or with
 * the hash #refreshTree, the scene tree is reloaded. A missing session (500100 / HTTP 401) is
 * sent to login by SessionReactions.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [ready, setReady] = useState(() => qc.getQueryData(PAGE_INFO_KEY) !== undefined);
  /** Why the page info could not be loaded (shown under the title, since the toast lasts one second). */
  const [failed, setFailed] = useState<string | false>(false);
  const [attempt, setAttempt] = useState(0);
  const firstNavigation = useRef(true);

  useEffect(() => {
    let live = true;
    // The first navigation takes the page info the boot fetched a moment ago (app/preload.ts);
    // every later one fetches it again.
    qc.fetchQuery<PageInfo>({ queryKey: PAGE_INFO_KEY, queryFn: fetchPageInfo, staleTime: attempt === 0 && firstNavigation.current ? PRELOAD_FRESH_MS : 0 })
      .then(async (info) => {
        if (!live) return;
        if (!info.funcs?.length) {
          void message.error({ content: t('common:error.noAccess'), duration: ERROR_TOAST_SECONDS });
          await logout(qc).catch(() => undefined);
          navigate('/login', { replace: true });
          return;
        }
        storePageInfo(info);
        applyStoredLanguage(info.userRsp?.locale);
        // §4: after page info, the download progress (the caller's exports still being generated join the watch list).
        if (info.funcs.includes('viewDownload')) void loadDownloadProgress().catch(() => undefined);
        if (session.get(SESSION_KEYS.fromLogin) || location.hash === '#refreshTree') {
          session.remove(SESSION_KEYS.fromLogin);
          void qc.invalidateQueries({ queryKey: SCENE_TREE_KEY });
        }
        setFailed(false);
        setReady(true);
      })
      .catch((e: unknown) => {
        // §8 reactions (toast, to login) are global (SessionReactions); here the reason and a retry.
        if (live) setFailed(errorMessage(e, t));
      });
    firstNavigation.current = false;
    return () => {
      live = false;
    };
    // Every navigation (key changes on each one, also to the same path).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.key, attempt]);

  if (!ready && failed)
    return (
      <Result
        status="warning"
        title={t('common:error.loadFailed')}
        subTitle={failed}
        extra={
          <Button type="primary" onClick={() => setAttempt((n) => n + 1)}>
            {t('common:action.retry')}
          </Button>
        }
      />
    );
  if (!ready) return <Spin fullscreen size="large" />;
  return <>{children}</>;
}
