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

export const canSee = (scope: Scope, customerId: number) => scope.customerIds === null || scope.customerIds.includes(customerId);

/**
 * The customer a new record belongs to: the caller's own, or for a platform user the one
 * named in the body (a platform user acting for a customer).
 */
export function targetCustomer(scope: Scope, requested?: number | null): number {
  if (requested && canSee(scope, requested)) return requested;
  return scope.customerId;
}
