import { preloadSignedIn } from './app/preload';

/*
 * The entry is small on purpose: a page opened directly starts its calls and its chunks
 * (preload.ts) as soon as this arrives, while the app's own code (React DOM, Ant Design, the
 * router) is still downloading and evaluating, instead of after it (docs/performance.md,
 * "Device monitor").
 */
preloadSignedIn(window.location.pathname);
void import('./boot');
