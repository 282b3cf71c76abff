import type { Lang } from '../lang';

/** Catalogue key of a language's own name (each language names itself alike in every catalogue). */
const KEY: Record<Lang, string> = { 'zh-CN': 'zhCN', 'en-US': 'enUS', 'ja-JP': 'jaJP', 'es-ES': 'esES' };
export const langNameKey = (l: Lang) => `common:language.${KEY[l]}`;
