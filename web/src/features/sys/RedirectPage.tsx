import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { Spin } from 'antd';

/** Target of /redirect/<path>: the refresh helper of the tabs (spec §2). */
export function redirectTarget(splat: string | undefined, search: string): string {
  const path = '/' + (splat ?? '').replace(/^\/+/, '');
  return path === '/' ? '/home' : path + search;
}

/** /redirect/{path}: remounts the given page by passing through here and going back. */
export default function RedirectPage() {
  const { '*': splat } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    navigate(redirectTarget(splat, search), { replace: true });
  }, [splat, search, navigate]);
  return <Spin className="cw-page-spin" />;
}
