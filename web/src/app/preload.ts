import { queryClient } from './queryClient';
import { fetchPageInfo, PAGE_INFO_KEY, type PageInfo } from './auth';
import { callAhead, keyOf } from '../api/call';
import { PageGate, SignedInLayout } from './signedInParts';

/** Routes that are not behind the login: nothing signed-in to fetch ahead. */
const SIGNED_OUT = new Set(['/login', '/register', '/404', '/dataBackup', '/exDetail', '/queryCode', '/traceDetail']);

/**
 * A signed-in page opened directly (a bookmark, a reload, a link from a mail): what it needs is
 * started at once and in parallel, instead of one after another as the tree renders (the
 * signed-in shell's chunk and catalogues, then the page info, then the page's chunk). The first
 * paint then waits for the slowest of them, not for their sum. The guard's own page-info fetch
 * joins the one in flight; once the page info says the user may open the page, the page's
 * opening calls (PageDef.prefetch) go too, and the page joins them when it mounts.
 */
export function preloadSignedIn(pathname: string) {
  if (SIGNED_OUT.has(pathname)) return;
  // The calls first: the browser queues requests on six connections, and the chunks are many.
  void queryClient.prefetchQuery<PageInfo>({ queryKey: PAGE_INFO_KEY, queryFn: fetchPageInfo, staleTime: 0 });
  void SignedInLayout.preload();
  void PageGate.preload();
  // The page table is not in the entry (the login route would carry it): the page's opening
  // calls and chunk go as soon as its few kilobytes arrive, beside the shell's chunks.
  void import('./pages').then(({ pageByPath }) => {
    const page = pageByPath(pathname === '/' ? '/home' : pathname);
    // The page's opening calls go beside the page info, and the page joins them when it mounts.
    // They fail quietly for a caller who may not open the page: the page gate then shows
    // 'no access', and a page that does mount on a failed one calls again and reports it.
    for (const { def, input } of page?.prefetch ?? []) void queryClient.prefetchQuery({ queryKey: keyOf(def, input), queryFn: () => callAhead(def, input as never) });
    void page?.Component.preload();
  });
}
