import { lazy } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { PAGES, ROUTE_ALIASES, SECTION_REDIRECTS } from './pages';
import { PageGate, SignedInLayout } from './signedInParts';

const RedirectPage = lazy(() => import('../features/sys/RedirectPage'));

/**
 * The routes behind the login: the page table (pages.tsx) with every page's lazy import comes
 * with them, in a chunk of its own, so the login route does not carry a line per page
 * (docs/performance.md "Page weight"). Anything no route claims goes to /404, signed in or not.
 */
/** Goes to the page that carries the route's content, with the same query. */
function Moved({ to }: { to: string }) {
  const { search } = useLocation();
  return <Navigate to={{ pathname: to, search }} replace />;
}

export default function SignedInRoutes() {
  return (
    <Routes>
      <Route element={<SignedInLayout />}>
        {PAGES.map((p) => (
          <Route key={p.path} path={p.path} element={<PageGate page={p} />} />
        ))}
        {Object.entries({ ...SECTION_REDIRECTS, ...ROUTE_ALIASES }).map(([from, to]) => (
          <Route key={from} path={from} element={<Moved to={to} />} />
        ))}
        <Route path="/redirect/*" element={<RedirectPage />} />
      </Route>
      <Route path="*" element={<Navigate to="/404" replace />} />
    </Routes>
  );
}
