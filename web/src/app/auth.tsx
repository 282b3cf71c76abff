import { useCallback, useMemo } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { USER_TYPE, authRefs, mineRefs, type mineApi, type MenuNode, type PublicUser, type Result } from '@coldwatch/contract';
import { call } from '../api/call';
import { session, SESSION_KEYS } from './session';

/** The user as the page-info call returns it (`userRsp`). */
export type UserRsp = PublicUser;

/** One entry of the caller's menu (computed by the server per roles, levels and visibility). */
export type { MenuNode };

/** Result of GET /service/mine/pageInfo (spec §4). */
export type PageInfo = Result<typeof mineApi.pageInfo>;

export const PAGE_INFO_KEY = ['pageInfo'] as const;

/** Platform and proxy users read several customers' rows: lists then show the customer column. */
export const seesManyCustomers = (userType: number | undefined) => userType !== undefined && (userType >= USER_TYPE.platformUser || userType === USER_TYPE.proxy);

export const fetchPageInfo = () => call(mineRefs.pageInfo);

/** True only if every code is held (spec §6: an action is allowed only if all required keys are true). */
export function holdsAll(auths: Record<string, boolean> | undefined, codes: readonly string[]): boolean {
  if (!auths) return false;
  return codes.every((c) => auths[c] === true);
}

/** Page info remembered in session storage so a reload renders at once; the guard refreshes it. */
export const readStoredPageInfo = () => session.get<PageInfo>(SESSION_KEYS.pageInfo);
export const storePageInfo = (info: PageInfo) => session.set(SESSION_KEYS.pageInfo, info);

/** Ends the session on the server and in the browser. Throws the server's failure (spec §8: 'exit failed'). */
export async function logout(qc: QueryClient) {
  try {
    await call(authRefs.logoutPost);
  } finally {
    session.clear();
    qc.clear();
  }
}

export interface Auth {
  /** The signed-in user, undefined before the first page info. */
  user: UserRsp | undefined;
  /** Scope type of spec §6: 0 customer use, 1 customer management, 2 platform use, 3 platform management, -1 proxy. */
  userType: number | undefined;
  funcs: string[];
  auths: Record<string, boolean>;
  /** True only if the user holds every one of the given function codes. `can()` with no codes is true. */
  can: (...codes: string[]) => boolean;
  loggedIn: boolean;
  /** The user whose id is 1 (spec §6: resource entry). */
  isRoot: boolean;
  /** The caller's menu tree; undefined when the server did not send one. */
  menu: MenuNode[] | undefined;
}

/** The caller's identity and permissions, kept fresh by the login guard on every navigation. */
export function useAuth(): Auth {
  const { data } = useQuery({
    queryKey: PAGE_INFO_KEY,
    queryFn: fetchPageInfo,
    // The guard fetches on each navigation; this hook only reads the cache.
    enabled: false,
    initialData: readStoredPageInfo,
    staleTime: Infinity,
  });
  const auths = useMemo(() => data?.auths ?? {}, [data]);
  const can = useCallback((...codes: string[]) => holdsAll(auths, codes), [auths]);
  return useMemo(
    () => ({
      user: data?.userRsp,
      userType: data?.userType,
      funcs: data?.funcs ?? [],
      auths,
      can,
      loggedIn: !!data,
      isRoot: data?.isRoot ?? data?.userRsp?.id === 1,
      menu: data?.menu,
    }),
    [data, auths, can],
  );
}

/** Logout bound to the query client. */
export function useLogout() {
  const qc = useQueryClient();
  return useCallback(() => logout(qc), [qc]);
}

/** Fetches page info again (after the user changed its own profile) and keeps it. */
export async function refreshPageInfo(qc: QueryClient) {
  const info = await qc.fetchQuery<PageInfo>({ queryKey: PAGE_INFO_KEY, queryFn: fetchPageInfo, staleTime: 0 });
  storePageInfo(info);
  return info;
}
