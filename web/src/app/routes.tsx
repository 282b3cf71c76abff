import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Spin } from 'antd';
import { loadCatalogues } from './i18n';
import { PAGES, SECTION_REDIRECTS, type PageDef } from './pages';
import { preloadable } from './preloadable';
import LoginPage from '../features/login/LoginPage';

// The login route loads only what it shows: the guard, the shell (menu, tabs, tree) and the
// catalogues of the signed-in pages come with the first signed-in page.
const signedIn = () => Promise.all([import('./SignedIn'), loadCatalogues()]).then(([m]) => m);
export const SignedInLayout = preloadable<object>(() => signedIn().then((m) => ({ default: m.SignedInLayout })));
export const PageGate = preloadable<{ page: PageDef }>(() => signedIn().then((m) => ({ default: m.PageGate })));
const NotFoundPage = lazy(() => import('../features/sys/NotFoundPage'));
const RedirectPage = lazy(() => import('../features/sys/RedirectPage'));
const RegisterPage = lazy(() => import('../features/login/RegisterPage'));

/** Routes of spec §2. BrowserRouter: the server answers index.html for unknown GETs. */
export function AppRoutes() {
  return (
    <Suspense fallback={<Spin className="cw-page-spin" />}>
      <Routes>
        <Route path="/" element={<Navigate to="/home" replace />} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/404" element={<NotFoundPage />} />
        <Route element={<SignedInLayout />}>
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
    </Suspense>
  );
}
