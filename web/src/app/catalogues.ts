/**
 * Every catalogue but the login route's, of both languages, in one module: the shell loads it
 * as one chunk (i18n.ts loadCatalogues). As separate files they were some forty requests,
 * queued behind each other on the browser's six connections, ahead of the page's own calls.
 */
const files = import.meta.glob(['../locales/*/*.json', '!../locales/*/{common,login}.json'], { eager: true, import: 'default' }) as Record<string, Record<string, unknown>>;
export default files;
