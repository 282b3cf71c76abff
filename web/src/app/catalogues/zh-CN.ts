/**
 * Every zh-CN catalogue but the login route's, in one module: the shell loads it as one chunk, and
 * only for the language chosen (i18n.ts loadCatalogues). As separate files they were some forty
 * requests, queued behind each other on the browser's six connections.
 */
const files = import.meta.glob(['../../locales/zh-CN/*.json', '!../../locales/zh-CN/{common,login}.json'], { eager: true, import: 'default' }) as Record<string, Record<string, unknown>>;
export default files;
