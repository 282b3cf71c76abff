import { sql, type Kysely } from 'kysely';
import { Code, CUSTOMER_STATUS, DEVICE_STATUS, type LoanBody, type LoanState } from '@coldwatch/contract';
import type { Queryable } from '../../platform/db/client.js';
import type { DB } from '../../platform/db/schema.gen.js';
import { scoped } from '../../platform/db/scoped.js';
import { contains, msOf, msOrNull, paged, type PageInput } from '../../platform/db/query.js';
import type { Scope } from '../../platform/auth/scope.js';
import { AppError, noPermission, notFound, paramError } from '../../platform/http/errors.js';
import { rowInScope } from '../shared/records.js';

/*
 * Lending (docs/devices.md "Lending"). A lent sensor's row moves to the borrower: customer,
 * gateway (the borrower's, named in the loan) and no carrier. Everything scoped then sees it on
 * the borrower's side only, ingest files its readings there, and the owner's gateway hearing it
 * is refused with `lent_device`. Readings keep the customer they were taken under, so the
 * owner's history before and after the loan is untouched by it. The loan row is the owner's; it
 * remembers the gateway and carrier the sensor goes home to.
 */

export interface LoanFilter extends PageInput {
  state: LoanState;
  devNo?: string;
  borrowerId?: number;
}

const SORTABLE = { startsAt: 'l.starts_at', endsAt: 'l.ends_at' };

export function page(q: Queryable, scope: Scope, f: LoanFilter) {
  const query = scoped(q, scope)
    .selectFrom('device_loan as l')
    .innerJoin('customer as cu', 'cu.id', 'l.customer_id')
    .select([
      'l.id',
      'l.sensor_id as sensorId',
      'l.dev_no as devNo',
      'l.device_type as deviceType',
      'l.customer_id as customerId',
      'cu.name as customerName',
      'l.borrower_id as borrowerId',
      'l.borrower_name as borrowerName',
      msOf('l.starts_at').as('startsAt'),
      msOf('l.ends_at').as('endsAt'),
      msOrNull('l.ended_at').as('endedAt'),
      sql<'revoked' | 'expired' | null>`l.end_reason`.as('endReason'),
      'l.note',
      'l.operator',
      'l.ended_by as endedBy',
    ])
    .where((eb) => {
      const and = [eb('l.ended_at', f.state === 'current' ? 'is' : 'is not', null)];
      if (f.devNo) and.push(eb('l.dev_no', 'ilike', contains(f.devNo)));
      if (f.borrowerId) and.push(eb('l.borrower_id', '=', f.borrowerId));
      return eb.and(and);
    });
  return paged(query, f, { sortable: SORTABLE, by: 'l.id desc' });
}

const refuse = (error: string, field: string) => paramError(error, { [field]: error });

/**
 * Lends sensors of one customer to another customer of the caller's scope (so only platform and
 * proxy users, who see both, lend). None may be on loan already or still being configured.
 */
export async function lend(q: Queryable, scope: Scope, b: LoanBody): Promise<{ lent: number; devNos: string[] }> {
  if (scope.sceneIds !== null) throw noPermission();
  const k = scoped(q, scope);
  const ids = [...new Set(b.sensorIds)];
  const sensors = await k
    .selectFrom('sensor as x')
    .select(['x.id', 'x.dev_no', 'x.type', 'x.customer_id', 'x.gateway_id', 'x.carrier_id', 'x.lent_from'])
    .where('x.id', 'in', ids)
    .forUpdate()
    .execute();
  if (sensors.length !== ids.length) throw notFound();
  const owner = sensors[0].customer_id;
  if (sensors.some((s) => s.customer_id !== owner)) throw refuse('errors.loan.mixedCustomers', 'sensorIds');
  if (sensors.some((s) => s.lent_from !== null)) throw refuse('errors.loan.alreadyLent', 'sensorIds');
  if (b.borrowerId === owner) throw refuse('errors.loan.sameCustomer', 'borrowerId');
  const borrower = await k.selectFrom('customer').select(['id', 'name', 'status']).where('id', '=', b.borrowerId).executeTakeFirst();
  if (!borrower) throw notFound();
  if (borrower.status !== CUSTOMER_STATUS.active) throw refuse('errors.loan.borrowerCancelled', 'borrowerId');
  const gateway = await rowInScope(k, scope, 'gateway', b.gatewayId);
  if (gateway.customer_id !== b.borrowerId) throw refuse('errors.loan.gatewayOfBorrower', 'gatewayId');
  const busy = await k.selectFrom('device_command').select('id').where('sensor_id', 'in', ids).where('status', 'in', ['prepare', 'issuing']).executeTakeFirst();
  if (busy) throw refuse('errors.config.busy', 'sensorIds');

  await k
    .insertInto('device_loan')
    .values(
      sensors.map((s) => ({
        customer_id: owner,
        borrower_id: b.borrowerId,
        sensor_id: s.id,
        dev_no: s.dev_no,
        device_type: s.type,
        borrower_name: borrower.name,
        origin_gateway_id: s.gateway_id,
        origin_carrier_id: s.carrier_id,
        ends_at: new Date(b.endsAt),
        note: b.note,
        operator: scope.name || scope.account,
      })),
    )
    .execute();
  await leave(k, ids, owner);
  await k
    .updateTable('sensor')
    .set({ customer_id: b.borrowerId, gateway_id: b.gatewayId, carrier_id: null, lent_from: owner, lent_until: new Date(b.endsAt) })
    .where('id', 'in', ids)
    .execute();
  return { lent: ids.length, devNos: sensors.map((s) => s.dev_no) };
}

/**
 * What a sensor leaves behind when it changes hands: its ongoing exceptions end now (the next
 * holder judges it afresh), its queued alarm work and its place on a floor plan go, and its
 * latest values, which were taken for the customer it leaves (it is offline for the next
 * holder until it reports through the new gateway; a stopped sensor stays stopped).
 */
async function leave(k: Kysely<DB>, sensorIds: number[], from: number) {
  await k
    .updateTable('sensor')
    .set({
      status: sql`CASE WHEN status = ${DEVICE_STATUS.stopped} THEN status ELSE ${DEVICE_STATUS.offline} END`,
      last_ts: null,
      last_temp: null,
      last_hum: null,
      last_volt: null,
      last_rssi: null,
      last_lqi: null,
      last_gas: null,
      last_door: null,
    })
    .where('id', 'in', sensorIds)
    .execute();
  await k
    .updateTable('exception_record')
    .set({ ongoing: false, end_ts: sql`greatest(now(), start_ts)`, duration_s: sql`round(extract(epoch FROM greatest(now(), start_ts) - start_ts))` })
    .where('sensor_id', 'in', sensorIds)
    .where('customer_id', '=', from)
    .where('ongoing', '=', true)
    .execute();
  await k.deleteFrom('alarm_queue').where('sensor_id', 'in', sensorIds).execute();
  await k.deleteFrom('scene_device_position').where('sensor_id', 'in', sensorIds).execute();
}

/**
 * Ends current loans: each sensor goes home to its owner, its gateway and, if the owner still
 * has it, its carrier. `k` is the caller's scoped builder (revoke) or the job's (expiry); both
 * the owner and the borrower must be in it, which a revoking customer user is not: the loan is
 * then the owner's to see, the platform's to end.
 */
export async function endLoans(k: Kysely<DB>, loanIds: number[], reason: 'revoked' | 'expired', by: string | null): Promise<{ ended: number; devNos: string[] }> {
  const loans = await k
    .selectFrom('device_loan as l')
    .select(['l.id', 'l.sensor_id', 'l.customer_id', 'l.borrower_id', 'l.origin_gateway_id', 'l.origin_carrier_id', 'l.dev_no'])
    .where('l.id', 'in', loanIds)
    .where('l.ended_at', 'is', null)
    .forUpdate()
    .execute();
  for (const l of loans) {
    if (l.sensor_id !== null) {
      const carrier = l.origin_carrier_id
        ? await k.selectFrom('carrier').select('id').where('id', '=', l.origin_carrier_id).where('customer_id', '=', l.customer_id).executeTakeFirst()
        : undefined;
      await leave(k, [l.sensor_id], l.borrower_id);
      await k
        .updateTable('sensor')
        .set({ customer_id: l.customer_id, gateway_id: l.origin_gateway_id!, carrier_id: carrier?.id ?? null, lent_from: null, lent_until: null })
        .where('id', '=', l.sensor_id)
        .execute();
    }
    await k.updateTable('device_loan').set({ ended_at: sql`now()`, end_reason: reason, ended_by: by }).where('id', '=', l.id).execute();
  }
  return { ended: loans.length, devNos: loans.map((l) => l.dev_no) };
}

/** The owner's side ends loans early; every named loan must be current and in the caller's scope. */
export async function revoke(q: Queryable, scope: Scope, ids: number[]) {
  if (scope.sceneIds !== null) throw noPermission();
  const k = scoped(q, scope);
  const unique = [...new Set(ids)];
  const loans = await k.selectFrom('device_loan as l').select(['l.id', 'l.ended_at', 'l.borrower_id']).where('l.id', 'in', unique).execute();
  if (loans.length !== unique.length) throw notFound();
  if (loans.some((l) => l.ended_at !== null)) throw new AppError(Code.FAILED, 'errors.loan.notCurrent');
  // The sensor is on the borrower's side now: only a caller who sees the borrower too can bring it home.
  if (scope.customerIds !== null && loans.some((l) => !scope.customerIds!.includes(l.borrower_id))) throw noPermission();
  return endLoans(k, unique, 'revoked', scope.name || scope.account);
}

/** Loans whose period has run out, every customer's (the job `loan-return`). */
export function dueLoans(k: Kysely<DB>) {
  return k.selectFrom('device_loan').select('id').where('ended_at', 'is', null).where('ends_at', '<=', sql<Date>`now()`).orderBy('ends_at').limit(500).execute();
}
