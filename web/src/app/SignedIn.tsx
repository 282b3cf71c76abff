import { useMemo } from 'react';
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAuth } from './auth';
import { RequireAuth } from './guard';
import { menuCodes } from './menu';
import { canOpen, type PageDef } from './pages';
import { ShellLayout } from './shell/ShellLayout';

/*
 * Everything behind the login, in one lazily loaded module (routes.tsx): the guard, the shell
 * and the page gate. The login route does not download them.
 */

/** The shell, once the login guard has the page info. */
export function SignedInLayout() {
  return (
    <RequireAuth>
      <ShellLayout />
    </RequireAuth>
  );
}

/**
 * A page behind its menu entry and function codes (spec §6): without them — a hand-typed
 * address the caller's menu does not grant — the shell shows 'no access permission'.
 */
export function PageGate({ page }: { page: PageDef }) {
  const { can, isRoot, menu } = useAuth();
  const { t } = useTranslation();
  const codes = useMemo(() => (menu ? menuCodes(menu) : undefined), [menu]);
  if (!canOpen(page, { can, isRoot, menuCodes: codes }))
    return <Result status="403" title="403" subTitle={t('common:error.noAccess')} className="cw-no-access" />;
  return <page.Component />;
}
