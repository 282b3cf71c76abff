import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Spin } from 'antd';
import { PAGES, SECTION_REDIRECTS } from './pages';
import { PageGate, SignedInLayout } from './signedInParts';
import LoginPage from '../features/login/LoginPage';

const NotFoundPage = lazy(() => import('../features/sys/NotFoundPage'));
const RedirectPage = lazy(() => import('../features/sys/RedirectPage'));
const RegisterPage = lazy(() => import('../features/login/RegisterPage'));
// Spec §2 /dataBackup, no sign-in: outside the shell, so it loads the catalogues the shell would.
const DataBackupPage = lazy(() => Promise.all([import('../features/backup/DataBackupPage'), import('./i18n').then((m) => m.loadCatalogues())]).then(([m]) => m));

/** Routes of spec §2. BrowserRouter: the server answers index.html for unknown GETs. */
export function AppRoutes() {
  return (
    <Suspense fallback={<Spin className="cw-page-spin" />}>
      <Routes>
        <Route path="/" element={<Navigate to="/home" replace />} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/404" element={<NotFoundPage />} />
        <Route path="/dataBackup" element={<DataBackupPage />} />
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
