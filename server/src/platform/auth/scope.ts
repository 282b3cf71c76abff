import { USER_TYPE, type Locale } from '@coldwatch/contract';

/**
 * The caller's scope, resolved once per request from the session and passed into every
 * repository call. `customerIds` null means every customer (platform users).
 */
export interface Scope {
  userId: number;
  account: string;
  name: string;
  /** The customer the caller works in: its own, or for a proxy the governed one it switched to. */
  customerId: number;
  /** The customer the user's own row belongs to (its profile, shortcuts, files). */
  homeCustomerId: number;
  userType: number;
  isAdmin: boolean;
  customerIds: number[] | null;
  /**
   * The user's scene limit ("associated architecture", spec §3): the scenes of its user_scene
   * and of its active roles' role_scene rows with every scene below them. null = not limited
   * (the whole customer(s) of customerIds); platform users and root are never limited.
   */
  sceneIds: number[] | null;
  funcs: Set<string>;
  /** The interface language the user stored (PUT /service/mine/locale); the second source of spec §1. */
  locale?: Locale | null;
}

export const isPlatform = (s: Scope) => s.userType === USER_TYPE.platformUser || s.userType === USER_TYPE.platformAdmin;

/**
 * The scope of a reader holding a genuine signed link (a query code, a transport code): that
 * customer alone, nothing scene-limited, no functions; what it reads goes through the same scoped
 * queries as a signed-in user's.
 */
export const linkScope = (customerId: number): Scope => ({
  userId: 0,
  account: '',
  name: '',
  customerId,
  homeCustomerId: customerId,
  userType: USER_TYPE.customerUser,
  isAdmin: false,
  customerIds: [customerId],
  sceneIds: null,
  funcs: new Set(),
});

export const isSceneLimited = (scope: Scope) => scope.sceneIds !== null;

export const canSee = (scope: Scope, customerId: number) => scope.customerIds === null || scope.customerIds.includes(customerId);

/**
 * The customer a new record belongs to: the caller's own, or for a platform user the one
 * named in the body (a platform user acting for a customer).
 */
export function targetCustomer(scope: Scope, requested?: number | null): number {
  if (requested && canSee(scope, requested)) return requested;
  return scope.customerId;
}
