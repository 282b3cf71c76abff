import { lazy, useMemo } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAuth } from './auth';
import { RequireAuth } from './guard';
import { menuCodes } from './menu';
import { canOpen, PAGES, SECTION_REDIRECTS, type PageDef } from './pages';
import { ShellLayout } from './shell/ShellLayout';
import LoginPage from '../features/login/LoginPage';

const NotFoundPage = lazy(() => import('../features/sys/NotFoundPage'));
const RedirectPage = lazy(() => import('../features/sys/RedirectPage'));
const RegisterPage = lazy(() => import('../features/login/RegisterPage'));

/**
 * A page behind its menu entry and function codes (spec §6): without them — a hand-typed
 * address the caller's menu does not grant — the shell shows 'no access permission'.
 */
function PageGate({ page }: { page: PageDef }) {
  const { can, isRoot, menu } = useAuth();
  const { t } = useTranslation();
  const codes = useMemo(() => (menu ? menuCodes(menu) : undefined), [menu]);
  if (!canOpen(page, { can, isRoot, menuCodes: codes }))
    return <Result status="403" title="403" subTitle={t('common:error.noAccess')} className="cw-no-access" />;
  return <page.Component />;
}

/** Routes of spec §2. BrowserRouter: the server answers index.html for unknown GETs. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Navigate to="/home" replace />} />
      <Route path="/login" element={<LoginPage />} />
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/404" element={<NotFoundPage />} />
      <Route
        element={
          <RequireAuth>
            <ShellLayout />
          </RequireAuth>
        }
      >
        {PAGES.map((p) => (
          <Route key={p.path} path={p.path} element={<PageGate page={p} />} />
        ))}
        {Object.entries(SECTION_REDIRECTS).map(([from, to]) => (
          <Route key={from} path={from} element={<Navigate to={to} replace />} />
        ))}
        <Route path="/redirect/*" element={<RedirectPage />} />
      </Route>
      <Route path="*" element={<Navigate to="/404" replace />} />
    </Routes>
  );
}

