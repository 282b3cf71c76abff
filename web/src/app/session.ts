/**
 * Client data in the browser's session storage (spec §4: sessions persist in session
 * storage; §9: one key prefix for client data).
 */
export const STORAGE_PREFIX = 'cw.';

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    return undefined;
  }
}

export const session = {
  get<T>(key: string): T | undefined {
    const raw = storage()?.getItem(STORAGE_PREFIX + key);
    if (raw == null) return undefined;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return undefined;
    }
  },
  set(key: string, value: unknown) {
    try {
      storage()?.setItem(STORAGE_PREFIX + key, JSON.stringify(value));
    } catch {
      /* storage full or disabled: the app works without it */
    }
  },
  remove(key: string) {
    storage()?.removeItem(STORAGE_PREFIX + key);
  },
  /** Drops every key of ours (logout). */
  clear() {
    const s = storage();
    if (!s) return;
    for (const k of Object.keys(s)) if (k.startsWith(STORAGE_PREFIX)) s.removeItem(k);
  },
};

export const SESSION_KEYS = {
  pageInfo: 'pageInfo',
  tabs: 'tabs',
  fromLogin: 'fromLogin',
  userLocale: 'userLocale',
} as const;
