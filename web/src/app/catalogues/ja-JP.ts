/**
 * Every ja-JP catalogue but the login route's, in one module: the shell loads it as one chunk, and
 * only for the language chosen (i18n.ts loadCatalogues). As separate files they were some forty
 * requests, queued behind each other on the browser's six connections.
 */
const files = import.meta.glob(['../../locales/ja-JP/*.json', '!../../locales/ja-JP/{common,login}.json'], { eager: true, import: 'default' }) as Record<string, Record<string, unknown>>;
export default files;
