import { Suspense, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { Button, Layout, Spin, Tooltip } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LogoMark } from '../../ui/Logo';
import { ErrorBoundary } from '../ErrorBoundary';
import { canOpen, pageByPath } from '../pages';
import { useAuth } from '../auth';
import { menuCodes } from '../menu';
import { session, SESSION_KEYS } from '../session';
import { HOME_PATH, nextPathAfter, normalizeTabs, tabsReducer, type Tab, type TabsAction } from '../tabs';
import { LanguageSwitch } from './LanguageSwitch';
import { ShellFooter } from './ShellFooter';
import { SideMenu } from './SideMenu';
import { TabsBar } from './TabsBar';
import { UserMenu } from './UserMenu';
import { ShortcutBar } from '../../features/shortcut/ShortcutBar';
import './shell.css';
import { GuidedTour } from '../../features/tour/GuidedTour';
import { HelpButton } from '../../features/help/HelpButton';
import { DownloadWatcher } from '../../features/download/DownloadWatcher';

export const SIDER_WIDTH = 210;
export const SIDER_COLLAPSED = 65;
/** Below antd's `md` breakpoint (768 px) the menu overlays the page. */
const NARROW_QUERY = '(max-width: 767.98px)';

/** The common layout of spec §2: left menu, header with tabs, language, user menu; footer. */
export function ShellLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  // On a phone the menu is hidden and opens over the page; on a wider screen it folds to icons.
  const [narrow, setNarrow] = useState(() => window.matchMedia?.(NARROW_QUERY).matches ?? false);
  const [collapsed, setCollapsed] = useState(() => narrow || (session.get<boolean>('siderCollapsed') ?? false));
  const [tabs, dispatch] = useReducer(tabsReducer, undefined, () => normalizeTabs(session.get<Tab[]>(SESSION_KEYS.tabs) ?? []));

  const { can, isRoot, menu } = useAuth();
  const codes = useMemo(() => (menu ? menuCodes(menu) : undefined), [menu]);
  const found = pageByPath(location.pathname);
  // A page the caller may not open gets no tab (the 403 shows in place).
  const page = found && canOpen(found, { can, isRoot, menuCodes: codes }) ? found : undefined;
  const lastActive = useRef(HOME_PATH);
  if (page) lastActive.current = page.path;
  // A forbidden page highlights no tab; the refresh helper (/redirect/…) keeps the last one.
  const activeKey = found && !page ? '' : lastActive.current;

  useEffect(() => {
    if (page) dispatch({ type: 'open', tab: { key: page.path, path: location.pathname + location.search, titleKey: page.titleKey } });
  }, [page, location.pathname, location.search]);

  useEffect(() => session.set(SESSION_KEYS.tabs, tabs), [tabs]);
  useEffect(() => {
    document.title = page ? `${t(page.titleKey)} - ${t('common:product')}` : t('common:product');
  }, [page, t]);
  useEffect(() => {
    if (!narrow) session.set('siderCollapsed', collapsed);
  }, [collapsed, narrow]);
  // On a phone, choosing a page closes the menu that covers it.
  useEffect(() => {
    if (narrow) setCollapsed(true);
  }, [narrow, location.pathname]);

  const onAction = (action: TabsAction) => {
    const to = nextPathAfter(tabs, action, activeKey);
    dispatch(action);
    if (to) navigate(to);
  };

  return (
    <Layout className="cw-shell">
      <Layout.Sider
        className={narrow ? 'cw-sider is-narrow' : 'cw-sider'}
        width={SIDER_WIDTH}
        collapsedWidth={narrow ? 0 : SIDER_COLLAPSED}
        collapsed={collapsed}
        breakpoint="md"
        onBreakpoint={setNarrow}
        trigger={null}
      >
        <div className="cw-brand" onClick={() => navigate(HOME_PATH)}>
          <LogoMark size={30} />
          {!collapsed && <span className="cw-brand-name">{t('common:product')}</span>}
        </div>
        <SideMenu collapsed={collapsed} />
      </Layout.Sider>
      <Layout className="cw-main">
        <Layout.Header className="cw-header">
          <Tooltip title={t(collapsed ? 'shell:expandMenu' : 'shell:collapseMenu')}>
            <Button
              type="text"
              className="cw-collapse"
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => setCollapsed((c) => !c)}
              aria-label={t(collapsed ? 'shell:expandMenu' : 'shell:collapseMenu')}
            />
          </Tooltip>
          <div className="cw-tabs-wrap">
            <TabsBar
              compact={narrow}
              tabs={tabs}
              activeKey={activeKey}
              onOpen={(tab) => navigate(tab.path)}
              onRefresh={(tab) => navigate(`/redirect${tab.path}`, { replace: true })}
              onAction={onAction}
            />
          </div>
          <div className="cw-header-right">
            <HelpButton />
            <LanguageSwitch loggedIn />
            <UserMenu />
          </div>
        </Layout.Header>
        {/* On a phone the shortcut bar and the footer scroll with the page instead of holding 110 px of it. */}
        {!narrow && <ShortcutBar />}
        <Layout.Content className="cw-content">
          {narrow && <ShortcutBar />}
          <ErrorBoundary key={location.pathname}>
            <Suspense fallback={<Spin className="cw-page-spin" />}>
              <Outlet />
            </Suspense>
          </ErrorBoundary>
          {narrow && <ShellFooter />}
        </Layout.Content>
        {!narrow && <ShellFooter />}
      </Layout>
      <GuidedTour />
      <DownloadWatcher />
    </Layout>
  );
}
