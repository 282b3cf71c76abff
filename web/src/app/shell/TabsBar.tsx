import { Button, Dropdown, Tabs, type MenuProps } from 'antd';
import { CloseCircleOutlined, CloseOutlined, DownOutlined, MinusCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { HOME_PATH, type Tab, type TabsAction } from '../tabs';

export interface TabsBarProps {
  /** A phone: the shown page's name in full, the other tabs and the tab actions in its drop-down. */
  compact?: boolean;
  tabs: Tab[];
  activeKey: string;
  onOpen: (tab: Tab) => void;
  onRefresh: (tab: Tab) => void;
  onAction: (action: TabsAction) => void;
}

/** Tabs of visited pages; right-click: refresh, close, close others, close all (spec §2). */
export function TabsBar({ compact, tabs, activeKey, onOpen, onRefresh, onAction }: TabsBarProps) {
  const { t } = useTranslation();

  const menuFor = (tab: Tab): MenuProps => ({
    items: [
      { key: 'refresh', icon: <ReloadOutlined />, label: t('shell:tabs.refresh') },
      { key: 'close', icon: <CloseOutlined />, label: t('shell:tabs.close'), disabled: tab.key === HOME_PATH },
      { key: 'closeOthers', icon: <MinusCircleOutlined />, label: t('shell:tabs.closeOthers'), disabled: tabs.length <= (tab.key === HOME_PATH ? 1 : 2) },
      { key: 'closeAll', icon: <CloseCircleOutlined />, label: t('shell:tabs.closeAll'), disabled: tabs.length <= 1 },
    ],
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      if (key === 'refresh') onRefresh(tab);
      else if (key === 'close') onAction({ type: 'close', key: tab.key });
      else if (key === 'closeOthers') onAction({ type: 'closeOthers', key: tab.key });
      else if (key === 'closeAll') onAction({ type: 'closeAll' });
    },
  });

  if (compact) {
    const active = tabs.find((x) => x.key === activeKey) ?? tabs[0];
    const actions = menuFor(active);
    const menu: MenuProps = {
      items: [
        ...tabs.map((tab) => ({ key: `open:${tab.key}`, label: t(tab.titleKey), disabled: tab.key === active.key })),
        { type: 'divider' as const },
        ...(actions.items ?? []),
      ],
      onClick: (info) => {
        const tab = info.key.startsWith('open:') ? tabs.find((x) => `open:${x.key}` === info.key) : undefined;
        if (tab) onOpen(tab);
        else actions.onClick?.(info);
      },
    };
    return (
      <Dropdown menu={menu} trigger={['click']}>
        <Button type="text" className="cw-tabs-compact">
          <span className="cw-tab-label">{t(active.titleKey)}</span>
          {tabs.length > 1 && <span className="cw-tabs-count">{tabs.length}</span>}
          <DownOutlined />
        </Button>
      </Dropdown>
    );
  }

  return (
    <Tabs
      className="cw-tabs"
      type="editable-card"
      hideAdd
      size="small"
      activeKey={activeKey}
      onChange={(key) => {
        const tab = tabs.find((x) => x.key === key);
        if (tab) onOpen(tab);
      }}
      onEdit={(key, action) => {
        if (action === 'remove' && typeof key === 'string') onAction({ type: 'close', key });
      }}
      items={tabs.map((tab) => ({
        key: tab.key,
        closable: tab.key !== HOME_PATH,
        label: (
          <Dropdown menu={menuFor(tab)} trigger={['contextMenu']}>
            <span className="cw-tab-label">{t(tab.titleKey)}</span>
          </Dropdown>
        ),
      }))}
    />
  );
}
