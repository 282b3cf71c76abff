import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENE_BOUND } from './sceneLimit.js';
import { TENANT_COLUMN } from './schema.gen.js';

/*
 * The scene limit goes through one helper (platform/db/sceneLimit.ts, docs/permissions.md
 * "Scene limit"). Read from the source of the modules:
 * - no module writes a limit of its own from the caller's scene ids (`scope.sceneIds` serves
 *   only the yes/no question "is the caller limited");
 * - a module that reaches a scene-bound table with the builder uses the helper (sceneLimit, or
 *   the record helpers of modules/dm built on it), or is listed below with the reason it may not.
 * The behaviour itself is proven by test/isolation.test.ts, whose scene-limited user walks every
 * route; this test keeps the next module from writing its own predicate or none.
 */

const MODULES = new URL('../../modules/', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.includes('fixture') ? [p] : [];
  });
}

const files = sources(MODULES).map((p) => ({ path: relative(MODULES, p), text: readFileSync(p, 'utf8') }));

/** Files that read the caller's scene ids for more than "is it limited", and why they may. */
const OWN_LIMIT_ALLOWED: Record<string, string> = {
};

/** Files that reach a scene-bound table without the helper, and why they may. */
const HELPER_NOT_NEEDED: Record<string, string> = {
  'customer/customer.repository.ts': "customer cancel, activate and delete: platform calls over whole customers (platform users are never scene-limited)",
  'user/user.service.ts': "checks that a user's associated scenes are its customer's (the association itself, not a read of records)",
  'role/role.service.ts': "checks that a role's associated scenes are its customer's (the association itself, not a read of records)",
  'metrics/metrics.routes.ts': 'counts of every customer through crossTenant, for the operator, no caller scope',
  'relay/relay.routes.ts': 'stops or enables relays after repo.relaysInScope has checked them against the limit (busLimit)',
  'excatalog/excatalog.repository.ts': "how many exceptions name an exception reason: a customer-wide count that keeps a reason in use from being deleted, no record",
  'display/display.buzzer.ts': "the display-buzzer job: every customer's displays and their points' alarms, run by the job runner with no caller",
  'datareport/dataReport.repository.ts': "its carriers are chosen through carrier.repository's carrierFilter, which puts sceneLimit into the query (the statistics and exception counts it calls apply their own)",
  'exception/shared.ts': 'the one exception a signed /exDetail link names, read with no caller (the link\'s customer is the scope; docs/alarms.md)',
};

const BOUND = Object.keys(SCENE_BOUND).join('|');
const REACHES = new RegExp(`\\b(?:selectFrom|updateTable|deleteFrom|innerJoin|leftJoin|insertInto)\\(\\s*['"\`](?:${BOUND})\\b`);
const HELPERS = /\b(?:sceneLimit|limitOf|rowInScope|idsInScope|busInScope|busLimit|setDeviceStatus|gatewayAndCarrier|exceptionLimitOf|noticeLimitOf)\(/;
// scope.sceneIds for anything but `=== null` / `!== null` (isSceneLimited says the same).
const OWN_LIMIT = /\b(?:scope|still)\.sceneIds\b(?!\s*[!=]==\s*null)/;

describe('the scene limit goes through one helper', () => {
  it('finds the module sources', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.some((f) => REACHES.test(f.text) && HELPERS.test(f.text))).toBe(true);
  });

  it('lists only tenant tables as scene-bound', () => {
    for (const t of Object.keys(SCENE_BOUND)) expect(TENANT_COLUMN).toHaveProperty(t);
  });

  it('no module writes a scene predicate of its own', () => {
    const own = files.filter((f) => OWN_LIMIT.test(f.text) && !(f.path in OWN_LIMIT_ALLOWED)).map((f) => f.path);
    expect(own).toEqual([]);
  });

  it('every module reaching a scene-bound table uses the helper, or says why it need not', () => {
    const bare = files.filter((f) => REACHES.test(f.text) && !HELPERS.test(f.text) && !(f.path in HELPER_NOT_NEEDED)).map((f) => f.path);
    expect(bare).toEqual([]);
  });

  it('the lists hold no stale entry', () => {
    const has = (p: string) => files.some((f) => f.path === p);
    expect(Object.keys(HELPER_NOT_NEEDED).filter((p) => !has(p) || HELPERS.test(files.find((f) => f.path === p)!.text))).toEqual([]);
    expect(Object.keys(OWN_LIMIT_ALLOWED).filter((p) => has(p) && !OWN_LIMIT.test(files.find((f) => f.path === p)!.text))).toEqual([]);
  });

  it('would refuse a module with a predicate of its own, or none', () => {
    expect(OWN_LIMIT.test(`.where('c.scene_id', 'in', scope.sceneIds)`)).toBe(true);
    expect(OWN_LIMIT.test(`if (scope.sceneIds !== null) throw noPermission();`)).toBe(false);
    const bare = `k.selectFrom('sensor as s').select('s.id').where('s.gateway_id', '=', id)`;
    expect(REACHES.test(bare) && !HELPERS.test(bare)).toBe(true);
    expect(HELPERS.test(`.where((eb) => sceneLimit(eb, scope, 'sensor', 's'))`)).toBe(true);
  });
});
