import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Spin } from 'antd';
import LoginPage from '../features/login/LoginPage';

const NotFoundPage = lazy(() => import('../features/sys/NotFoundPage'));
// Every other route, the signed-in pages' table with them: not on the login route.
const SignedInRoutes = lazy(() => import('./signedInRoutes'));
const RegisterPage = lazy(() => import('../features/login/RegisterPage'));
// Spec §2 /dataBackup, no sign-in: outside the shell, so it loads the catalogues the shell would.
const DataBackupPage = lazy(() => Promise.all([import('../features/backup/DataBackupPage'), import('./i18n').then((m) => m.loadCatalogues())]).then(([m]) => m));
// Spec §2 /exDetail, no sign-in: one exception through a signed link (the alarm e-mail's), outside the shell likewise.
const ExDetailPage = lazy(() => Promise.all([import('../features/abnormal/ExDetailPage'), import('./i18n').then((m) => m.loadCatalogues())]).then(([m]) => m));

// The query code's page (/code/findCode makes the codes), no sign-in, built for a phone: outside the shell likewise.
// Spec §2 /guide "opens in a popup window": the help without the shell, for a window beside the console.
const GuidePopupPage = lazy(() => Promise.all([import('../features/help/GuidePopupPage'), import('./i18n').then((m) => m.loadCatalogues())]).then(([m]) => m));

const QueryCodePublicPage = lazy(() => Promise.all([import('../features/querycode/QueryCodePublicPage'), import('./i18n').then((m) => m.loadCatalogues())]).then(([m]) => m));
// Spec §2 /traceDetail, no sign-in: a trip's record by its transport code (docs/transport.md), built for a phone: outside the shell likewise.
const TraceDetailPage = lazy(() => Promise.all([import('../features/trip/TraceDetailPage'), import('./i18n').then((m) => m.loadCatalogues())]).then(([m]) => m));

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
        <Route path="/exDetail" element={<ExDetailPage />} />
        <Route path="/queryCode" element={<QueryCodePublicPage />} />
        <Route path="/traceDetail" element={<TraceDetailPage />} />
        <Route path="/guide" element={<GuidePopupPage />} />
        <Route path="*" element={<SignedInRoutes />} />
      </Routes>
    </Suspense>
  );
}
