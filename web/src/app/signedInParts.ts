import type { PageDef } from './pages';
import { preloadable } from './preloadable';

/*
 * Everything behind the login comes in one lazily loaded module (SignedIn.tsx) with the
 * signed-in pages' catalogues: the login route does not download them. Their handles live
 * here, apart from the routes, so that the boot's preload can start them before the app's own
 * code (antd, the router, the login page) has arrived.
 */
const signedIn = () => {
  // The current language's catalogues (one chunk) download beside the shell's.
  return Promise.all([import('./SignedIn'), import('./i18n').then((m) => m.loadCatalogues())]).then(([m]) => m);
};

/** The guard and the shell. */
export const SignedInLayout = preloadable<object>(() => signedIn().then((m) => ({ default: m.SignedInLayout })));
/** A page behind its menu entry and function codes. */
export const PageGate = preloadable<{ page: PageDef }>(() => signedIn().then((m) => ({ default: m.PageGate })));

/**
 * The user has started to sign in: the shell and the page the login leads to load while the
 * password is typed, so that the first signed-in page renders when the login answers instead of
 * after its own downloads (and React's 300 ms reveal of what replaces a spinner). The login
 * page's first paint is untouched: nothing of this loads before the user types.
 */
export function warmSignedIn(to: string) {
  void SignedInLayout.preload();
  void PageGate.preload();
  void import('./pages').then((m) => m.preloadPage(new URL(to, window.location.origin).pathname));
}
