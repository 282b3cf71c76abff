import { api } from '../../api/client';

/** A shortcut: a menu entry (id of the menu resource) with its route. */
export interface Shortcut {
  id: number;
  code: string;
  name: string;
  url: string;
  icon?: string;
}

/** A node of the pick tree (the caller's visible menu); `check` marks the current shortcuts. */
export interface PickNode extends Shortcut {
  check?: boolean;
  children?: PickNode[];
}

/** Spec §2: the shortcut bar holds one row (the server allows this many). */
export const MAX_SHORTCUTS = 12;
export const SHORTCUTS_KEY = ['shortcuts'] as const;

export const fetchShortcuts = () => api.get<Shortcut[]>('/service/mine/shortcut');
export const fetchPickTree = () => api.get<PickNode[]>('/service/mine/shortcutMenu');
export const saveShortcuts = (ids: number[]) => api.post<Shortcut[]>('/service/mine/addShortcut', { ids });
