import { USER_TYPE } from '@coldwatch/contract';

/**
 * The caller's scope, resolved once per request from the session and passed into every
 * repository call. `customerIds` null means every customer (platform users).
 */
export interface Scope {
  userId: number;
  account: string;
  name: string;
  customerId: number;
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
}

export const isPlatform = (s: Scope) => s.userType === USER_TYPE.platformUser || s.userType === USER_TYPE.platformAdmin;

/**
 * SQL filter for a customer_id column: appends its parameter to params and returns the
 * condition. Every query of customer data goes through this.
 */
export function scopeWhere(scope: Scope, column: string, params: unknown[]): string {
  if (scope.customerIds === null) return 'TRUE';
  params.push(scope.customerIds);
  return `${column} = ANY($${params.length}::int[])`;
}

/**
 * SQL filter for a scene id column (scene.id, carrier.scene_id): 'TRUE' for an unlimited
 * caller, else the column must be one of the limit's scenes. Used beside scopeWhere.
 */
export function sceneWhere(scope: Scope, column: string, params: unknown[]): string {
  if (scope.sceneIds === null) return 'TRUE';
  params.push(scope.sceneIds);
  return `${column} = ANY($${params.length}::int[])`;
}

/**
 * SQL filter for a carrier id column (sensor.carrier_id, gateway.carrier_id, …): the carrier
 * must hang under the limit's scenes. A NULL carrier fails it, so unbound devices are seen by
 * unlimited callers only.
 */
export function carrierWhere(scope: Scope, column: string, params: unknown[]): string {
  if (scope.sceneIds === null) return 'TRUE';
  params.push(scope.sceneIds);
  return `${column} IN (SELECT lc.id FROM carrier lc WHERE lc.scene_id = ANY($${params.length}::int[]))`;
}

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
