import { useSyncExternalStore } from 'react';

/** Below antd's `sm` breakpoint (576 px): a phone held upright. */
export const PHONE_QUERY = '(max-width: 575.98px)';

/** Whether the media query matches now; follows it as the window turns or resizes. False where there is no matchMedia (tests). */
export function useMedia(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const m = window.matchMedia?.(query);
      m?.addEventListener('change', changed);
      return () => m?.removeEventListener('change', changed);
    },
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}

/** A phone's width: lists show their rows as cards there (ui/PhoneRows.tsx). */
export const usePhone = () => useMedia(PHONE_QUERY);
