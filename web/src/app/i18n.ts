import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
import { mineRefs } from '@coldwatch/contract';
import { call } from '../api/call';
import { chooseLanguage, DEFAULT_LANG, LANG_COOKIE, normalizeLang, readCookie, type Lang } from './lang';
import { session, SESSION_KEYS } from './session';

/**
 * Every catalogue under src/locales/<lang>/<namespace>.json is bundled; a new namespace
 * file is picked up without touching this code. The login route's own (common, login) are in
 * the first download; the rest arrive with the shell (`loadCatalogues`, one chunk), so that
 * the login page stays light.
 */
type Catalogue = Record<string, unknown>;
const firstFiles = import.meta.glob('../locales/*/{common,login}.json', { eager: true, import: 'default' }) as Record<string, Catalogue>;

const place = (file: string) => /locales\/([^/]+)\/([^/]+)\.json$/.exec(file);

export const resources: Record<string, Record<string, Catalogue>> = {};
for (const [file, data] of Object.entries(firstFiles)) {
  const m = place(file);
  if (m) (resources[m[1]] ??= {})[m[2]] = data;
}

type Catalogues = Promise<{ default: Record<string, Catalogue> }>;
let later: Promise<void> | undefined;
/**
 * Adds every other namespace, in both languages (the switch may come at any time); once, from
 * one chunk (catalogues.ts). `chunk` is its download if the caller started it already.
 */
export function loadCatalogues(chunk?: Catalogues): Promise<void> {
  later ??= (chunk ?? import('./catalogues')).then(({ default: files }) => {
    for (const [file, data] of Object.entries(files)) {
      const m = place(file);
      if (m) i18n.addResourceBundle(m[1], m[2], data, true, true);
    }
  });
  return later;
}

const DAYJS_LOCALE: Record<Lang, string> = { 'zh-CN': 'zh-cn', 'en-US': 'en' };

/** The language of this page load (spec §1 order); the stored setting comes from the last page info. */
export function initialLanguage(): Lang {
  return chooseLanguage({
    cookie: readCookie(LANG_COOKIE, document.cookie),
    stored: session.get<string>(SESSION_KEYS.userLocale),
    browser: navigator.languages?.length ? navigator.languages : [navigator.language],
  });
}

function applySideEffects(lng: string) {
  const l = normalizeLang(lng) ?? DEFAULT_LANG;
  dayjs.locale(DAYJS_LOCALE[l]);
  document.documentElement.lang = l;
}

i18n.on('languageChanged', applySideEffects);

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage(),
  fallbackLng: DEFAULT_LANG,
  supportedLngs: ['zh-CN', 'en-US'],
  ns: Object.keys(resources[DEFAULT_LANG] ?? { common: {} }),
  partialBundledLanguages: true,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  initAsync: false,
});
applySideEffects(i18n.language);

export const currentLang = (): Lang => normalizeLang(i18n.language) ?? DEFAULT_LANG;

function setLangCookie(lang: Lang) {
  document.cookie = `${LANG_COOKIE}=${encodeURIComponent(lang)}; path=/; max-age=${365 * 86400}; samesite=lax`;
}

/**
 * The user's stored setting arrived (page info or login answer). It ranks after the cookie:
 * applied only when no `lang` cookie is set, without a reload (it is this load's choice).
 */
export function applyStoredLanguage(stored: string | null | undefined) {
  const l = normalizeLang(stored);
  if (l) session.set(SESSION_KEYS.userLocale, l);
  const chosen = chooseLanguage({
    cookie: readCookie(LANG_COOKIE, document.cookie),
    stored: l,
    browser: navigator.languages?.length ? navigator.languages : [navigator.language],
  });
  if (chosen !== currentLang()) void i18n.changeLanguage(chosen);
}

/**
 * Switches the interface language (spec §1): logged in, the choice is stored on the server
 * (which also sets the cookie); otherwise only the cookie is set. Then the page reloads.
 */
export async function switchLanguage(lang: Lang, loggedIn: boolean) {
  if (loggedIn) {
    try {
      await call(mineRefs.locale, { query: { lang } });
    } catch {
      /* still switch locally: the cookie decides the next load */
    }
    session.set(SESSION_KEYS.userLocale, lang);
  }
  setLangCookie(lang);
  window.location.reload();
}

export default i18n;
