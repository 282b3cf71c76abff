import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Menu, type MenuProps } from 'antd';
import { AlertOutlined, DashboardOutlined, HomeOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth';
import { PAGES, SECTIONS, type PageDef } from '../pages';

const ICONS: Record<string, ReactNode> = {
  home: <HomeOutlined />,
  databoard: <DashboardOutlined />,
  abnormal: <AlertOutlined />,
};

type Item = Required<MenuProps>['items'][number];

/** Menu entries the user may open: a page shows when all its function codes are held; empty sections are dropped. */
export function menuModel(can: (...codes: string[]) => boolean, pages: readonly PageDef[] = PAGES) {
  const visible = pages.filter((p) => !p.hidden && can(...(p.funcs ?? [])));
  const top = visible.filter((p) => !p.section);
  const sections = SECTIONS.map((s) => ({ ...s, pages: visible.filter((p) => p.section === s.key) })).filter((s) => s.pages.length > 0);
  return { top, sections };
}

export function SideMenu({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const { can } = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const model = useMemo(() => menuModel(can), [can]);
  const section = PAGES.find((p) => p.path === pathname)?.section;
  const [open, setOpen] = useState<string[]>(() => (section ? [section] : []));

  useEffect(() => {
    if (section) setOpen((o) => (o.includes(section) ? o : [...o, section]));
  }, [section]);

  const items: Item[] = [
    ...model.top.map((p) => ({ key: p.path, icon: p.icon ? ICONS[p.icon] : undefined, label: t(p.titleKey) })),
    ...model.sections.map((s) => ({
      key: s.key,
      icon: ICONS[s.icon],
      label: t(`shell:menu.${s.key}`),
      children: s.pages.map((p) => ({ key: p.path, label: t(p.titleKey) })),
    })),
  ];

  return (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={[pathname]}
      {...(collapsed ? {} : { openKeys: open, onOpenChange: (k: string[]) => setOpen(k) })}
      onClick={({ key }) => navigate(key)}
      style={{ borderInlineEnd: 0 }}
    />
  );
}
