import { useEffect, useState } from 'react';
import i18n, { currentLang } from './i18n';
import type { Lang } from './lang';

/*
 * The server's messages (packages/contract/locales/<lang>/errors.json) for the few pages that
 * check a contract rule in the browser before sending (the parameters, the device configuration):
 * only the page's language is downloaded, when such a page first opens, into i18next's namespace
 * `server`. The contract's own `translate` holds all four languages; a page importing it carried
 * them all (docs/architecture.md "Languages").
 */

type Catalogue = Record<string, unknown>;
const files = import.meta.glob('../../../packages/contract/locales/*/errors.json', { import: 'default' }) as Record<string, () => Promise<Catalogue>>;
const loaded = new Map<Lang, Promise<void>>();

export function loadServerMessages(lang: Lang = currentLang()): Promise<void> {
  let p = loaded.get(lang);
  if (!p) {
    const file = files[`../../../packages/contract/locales/${lang}/errors.json`];
    p = file ? file().then((data) => void i18n.addResourceBundle(lang, 'server', data, true, true)) : Promise.resolve();
    loaded.set(lang, p);
  }
  return p;
}

/** A server message key (`errors.…`) in the page's language; the key itself until loaded. */
export const serverMessage = (key: string, vars?: Record<string, string | number>): string => i18n.t(key, { ns: 'server', ...vars });

/** Loads the page's language's server messages; the page renders again once they are there. */
export function useServerMessages(): typeof serverMessage {
  const [, setReady] = useState(false);
  useEffect(() => {
    let live = true;
    void loadServerMessages().then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, []);
  return serverMessage;
}
