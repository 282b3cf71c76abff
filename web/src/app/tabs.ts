/** The tabs of visited pages in the shell header (spec §2). Pure: the shell keeps the state. */
export interface Tab {
  /** The page's path without query: one tab per page. */
  key: string;
  /** Where the tab leads: path with query, as last visited. */
  path: string;
  /** Catalogue key of the title. */
  titleKey: string;
}

export const HOME_PATH = '/home';
/** The most tabs the header keeps, home included. */
export const MAX_TABS = 12;
export const HOME_TAB: Tab = { key: HOME_PATH, path: HOME_PATH, titleKey: 'shell:page.home' };

export type TabsAction =
  | { type: 'open'; tab: Tab }
  | { type: 'close'; key: string }
  | { type: 'closeOthers'; key: string }
  | { type: 'closeAll' };

/** Home is always first and never closed. */
export function normalizeTabs(tabs: readonly Tab[]): Tab[] {
  const rest = tabs.filter((t) => t.key !== HOME_PATH);
  const home = tabs.find((t) => t.key === HOME_PATH);
  return [home ?? HOME_TAB, ...rest];
}

export function tabsReducer(tabs: Tab[], action: TabsAction): Tab[] {
  switch (action.type) {
    case 'open': {
      // One tab per page: a page reached by another route (history from an exception, and from
      // the menu) takes over the tab it already has.
      const i = tabs.findIndex((t) => t.key === action.tab.key || t.titleKey === action.tab.titleKey);
      if (i < 0) {
        const grown = normalizeTabs([...tabs, action.tab]);
        // Tabs do not pile up: past MAX_TABS the longest-open one after home goes.
        return grown.length > MAX_TABS ? [grown[0], ...grown.slice(2)] : grown;
      }
      if (tabs[i].path === action.tab.path && tabs[i].titleKey === action.tab.titleKey) return tabs;
      const next = tabs.slice();
      next[i] = action.tab;
      return next;
    }
    case 'close':
      if (action.key === HOME_PATH) return tabs;
      return normalizeTabs(tabs.filter((t) => t.key !== action.key));
    case 'closeOthers':
      return normalizeTabs(tabs.filter((t) => t.key === action.key || t.key === HOME_PATH));
    case 'closeAll':
      return normalizeTabs(tabs.filter((t) => t.key === HOME_PATH));
  }
}

/**
 * Where to go after `action` when `activeKey` is shown: undefined to stay. Closing the shown
 * tab moves to its left neighbour; closing others shows the kept tab; closing all shows home.
 */
export function nextPathAfter(tabs: readonly Tab[], action: TabsAction, activeKey: string): string | undefined {
  switch (action.type) {
    case 'open':
      return undefined;
    case 'close': {
      if (action.key !== activeKey || action.key === HOME_PATH) return undefined;
      const i = tabs.findIndex((t) => t.key === action.key);
      const neighbour = tabs[i - 1] ?? tabs[i + 1];
      return neighbour?.path ?? HOME_PATH;
    }
    case 'closeOthers': {
      if (action.key === activeKey) return undefined;
      return tabs.find((t) => t.key === action.key)?.path ?? HOME_PATH;
    }
    case 'closeAll':
      return activeKey === HOME_PATH ? undefined : (tabs.find((t) => t.key === HOME_PATH)?.path ?? HOME_PATH);
  }
}
