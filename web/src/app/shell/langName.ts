import type { Lang } from '../lang';

/** Catalogue key of a language's own name. */
export const langNameKey = (l: Lang) => `common:language.${l === 'zh-CN' ? 'zhCN' : 'enUS'}`;
