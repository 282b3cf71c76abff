import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import type { Locale as AntdLocale } from 'antd/es/locale';
import { mineRefs } from '@coldwatch/contract';
import { call } from '../api/call';
import { chooseLanguage, DEFAULT_LANG, LANG_COOKIE, LANGS, normalizeLang, readCookie, type Lang } from './lang';
import { session, SESSION_KEYS } from './session';

/**
 * Every catalogue under src/locales/<lang>/<namespace>.json is bundled; a new namespace
 * file is picked up without touching this code. Each language's catalogues load only when that
 * language is chosen: the login route's own (common, login) before the first render
 * (`i18nReady`), the rest with the shell (`loadCatalogues`, one chunk per language,
 * catalogues/<lang>.ts), so that the login page stays light however many languages there are.
 */
type Catalogue = Record<string, unknown>;
const firstFiles = import.meta.glob('../locales/*/{common,login}.json', { import: 'default' }) as Record<string, () => Promise<Catalogue>>;
const restChunks = import.meta.glob('./catalogues/*.ts', { import: 'default' }) as Record<string, () => Promise<Record<string, Catalogue>>>;

const place = (file: string) => /locales\/([^/]+)\/([^/]+)\.json$/.exec(file);

function addFiles(files: [string, Catalogue][]) {
  for (const [file, data] of files) {
    const m = place(file);
    if (m) i18n.addResourceBundle(m[1], m[2], data, true, true);
  }
}

/**
 * Ant Design's texts (pagination, pickers, empty tables) and dayjs's month and weekday names of
 * each language: like the catalogues, only the chosen language's are downloaded.
 */
const ANTD_LOCALE: Record<Lang, () => Promise<AntdLocale>> = {
  'zh-CN': () => import('antd/es/locale/zh_CN').then((m) => m.default),
  'en-US': () => import('antd/es/locale/en_US').then((m) => m.default),
  'ja-JP': () => import('antd/es/locale/ja_JP').then((m) => m.default),
  'es-ES': () => import('antd/es/locale/es_ES').then((m) => m.default),
};
const DAYJS_LOCALE: Record<Lang, { name: string; load: () => Promise<unknown> }> = {
  'zh-CN': { name: 'zh-cn', load: () => import('dayjs/locale/zh-cn') },
  'en-US': { name: 'en', load: () => Promise.resolve() },
  'ja-JP': { name: 'ja', load: () => import('dayjs/locale/ja') },
  'es-ES': { name: 'es', load: () => import('dayjs/locale/es') },
};
const antdLocales = new Map<Lang, AntdLocale>();
/** Ant Design's locale of a language whose catalogues are loaded (App.tsx). */
export const antdLocaleOf = (lang: Lang): AntdLocale | undefined => antdLocales.get(lang);

const firstLoaded = new Map<Lang, Promise<void>>();
/** The login route's catalogues (common, login) of one language, with its Ant Design and dayjs locales. */
function loadFirst(lang: Lang): Promise<void> {
  let p = firstLoaded.get(lang);
  if (!p) {
    const mine = Object.entries(firstFiles).filter(([file]) => place(file)?.[1] === lang);
    p = Promise.all([
      Promise.all(mine.map(async ([file, load]) => [file, await load()] as [string, Catalogue])).then(addFiles),
      ANTD_LOCALE[lang]().then((l) => void antdLocales.set(lang, l)),
      DAYJS_LOCALE[lang].load().then(() => {
        if (currentLang() === lang) dayjs.locale(DAYJS_LOCALE[lang].name);
      }),
    ]).then(() => undefined);
    firstLoaded.set(lang, p);
  }
  return p;
}

const restLoaded = new Map<Lang, Promise<void>>();
/**
 * Adds every other namespace of the current language (or of `lang`), once, from its one chunk.
 * Switching the language reloads the page, so one language's are all a page load needs.
 */
export function loadCatalogues(lang: Lang = currentLang()): Promise<void> {
  let p = restLoaded.get(lang);
  if (!p) {
    const chunk = restChunks[`./catalogues/${lang}.ts`];
    p = Promise.all([loadFirst(lang), chunk ? chunk().then((files) => addFiles(Object.entries(files))) : undefined]).then(() => undefined);
    restLoaded.set(lang, p);
  }
  return p;
}

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
  dayjs.locale(DAYJS_LOCALE[l].name); // ignored until its file has loaded (loadFirst sets it then)
  document.documentElement.lang = l;
}

i18n.on('languageChanged', applySideEffects);

void i18n.use(initReactI18next).init({
  resources: {},
  lng: initialLanguage(),
  // Every language carries every key (logic.test.ts): no other language's catalogues are loaded.
  fallbackLng: false,
  supportedLngs: [...LANGS],
  ns: ['common', 'login'],
  partialBundledLanguages: true,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  initAsync: false,
});
applySideEffects(i18n.language);

/** The first render waits for this: the chosen language's login catalogues (boot.tsx). */
export const i18nReady: Promise<void> = loadFirst(normalizeLang(i18n.language) ?? DEFAULT_LANG);

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
  // Its catalogues first (the shell's too if they are loaded for the current one), then the switch.
  if (chosen !== currentLang()) void Promise.all([loadFirst(chosen), restLoaded.size ? loadCatalogues(chosen) : undefined]).then(() => i18n.changeLanguage(chosen));
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
