import { useEffect, useMemo, useState } from 'react';
import { Menu, type MenuProps } from 'antd';
import { HomeOutlined } from '@ant-design/icons';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth';
import { contractMenu, findEntry, sideMenuModel } from '../menu';
import { IMPLEMENTED, preloadPage } from '../pages';
import { HOME_PATH } from '../tabs';
import { menuIcon } from './menuIcons';

type Item = Required<MenuProps>['items'][number];

/** A page's entry as a real link: a middle or Ctrl click opens it in a new browser tab. */
const linkTo = (url: string, text: string) => <Link to={url}>{text}</Link>;

/** Localised name of a menu entry: the `menu` catalogue by code, else the server's name. */
export function useMenuLabel() {
  const { t } = useTranslation();
  return (code: string, name?: string) => t(`menu:${code}`, { defaultValue: name && name !== code ? t(name, { defaultValue: name }) : code });
}

/** The caller's menu: the server's, else (older server) the contract's cut to the caller's functions. */
export function useMenuTree() {
  const { menu, can, userType, isRoot } = useAuth();
  return useMemo(() => menu ?? contractMenu({ can, userType: userType ?? 0, isRoot }), [menu, can, userType, isRoot]);
}

/** Left menu of spec §2: home pinned first, then the sections of the caller's menu that have pages here. */
export function SideMenu({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const label = useMenuLabel();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tree = useMenuTree();
  const model = useMemo(() => sideMenuModel(tree, IMPLEMENTED), [tree]);
  const section = findEntry(model, pathname).section;
  const [open, setOpen] = useState<string[]>(() => (section ? [section] : []));

  useEffect(() => {
    if (section) setOpen((o) => (o.includes(section) ? o : [...o, section]));
  }, [section]);

  const items: Item[] = [
    { key: HOME_PATH, icon: <HomeOutlined />, label: linkTo(HOME_PATH, t('shell:page.home')), onMouseEnter: () => preloadPage(HOME_PATH) },
    ...model.map((e) =>
      e.children
        ? {
            key: e.key,
            icon: menuIcon(e.code, e.icon),
            label: label(e.code, e.name),
            children: e.children.map((c) => ({ key: c.url, label: linkTo(c.url, label(c.code, c.name)), onMouseEnter: () => preloadPage(c.url) })),
          }
        : { key: e.url, icon: menuIcon(e.code, e.icon), label: linkTo(e.url, label(e.code, e.name)), onMouseEnter: () => preloadPage(e.url) },
    ),
  ];

  return (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={[pathname]}
      {...(collapsed ? {} : { openKeys: open })}
      onOpenChange={(keys: string[]) => {
        if (!collapsed) setOpen(keys);
        // A section just opened: its pages' chunks, ahead of the click.
        for (const e of model) if (keys.includes(e.key) && !open.includes(e.key)) e.children?.forEach((c) => preloadPage(c.url));
      }}
      // A click on the link itself is the link's (client-side, or a new tab); the keyboard's Enter is the menu's.
      onClick={({ key, domEvent }) => {
        if (!(domEvent.target as HTMLElement).closest('a')) navigate(key);
      }}
      style={{ borderInlineEnd: 0 }}
    />
  );
}
