import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/*
 * The data layer's confinement (eslint.config.js, docs/data-layer.md) on small samples: the
 * side doors round the tenant scope are refused in a module file, the allowed forms pass, and
 * the confined paths keep their doors.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const MODULE = 'server/src/modules/scratch/scratch.repository.ts';
const RULES = new Set(['coldwatch/raw-sql', 'coldwatch/sql-fragment', 'no-restricted-imports', '@typescript-eslint/no-restricted-imports', 'no-restricted-syntax']);

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot, overrideConfigFile: 'eslint.config.js' });
});

/** The confinement messages of `code` linted as `filePath`, as `rule: message`. */
async function confinement(code: string, filePath = MODULE): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  const fatal = result.messages.filter((m: Linter.LintMessage) => m.fatal);
  if (fatal.length) throw new Error(`sample does not parse: ${fatal.map((m) => m.message).join('; ')}`);
  return result.messages.filter((m) => m.ruleId && RULES.has(m.ruleId)).map((m) => `${m.ruleId}: ${m.message}`);
}

const DECLS = `import type { Queryable } from '../../platform/db/client.js';\ndeclare const q: Queryable;\ndeclare const db: any;\n`;

describe('the three side doors of the issue are refused in a module', () => {
  it('importing kyselyOf (or anything of kysely.ts but system and crossTenant)', async () => {
    for (const code of [
      `import { kyselyOf } from '../../platform/db/kysely.js';\nkyselyOf(db);`,
      `import { bareOf as b } from '../../platform/db/kysely.js';\nb(db);`,
      `import * as k from '../../platform/db/kysely.js';\nk.system(db);`,
    ]) {
      // (the namespace import reaches crossTenant too, and says so as well)
      expect(await confinement(code), code).toContainEqual(
        expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: .*only system\(\) and crossTenant\(\) leave platform\/db\/kysely\.ts/),
      );
    }
    // and kysely.ts exports no unguarded builder at all
    const kysely = await import('../src/platform/db/kysely.js');
    expect(Object.keys(kysely).sort()).toEqual(['crossTenant', 'scoped', 'system']);
  });

  it("q.run('SELECT * FROM sensor'): a literal naming a tenant table", async () => {
    expect(await confinement(`${DECLS}await q.run('SELECT * FROM sensor');`)).toEqual([
      'coldwatch/raw-sql: .run() names the tenant table sensor in hand-written SQL, which no scope filters. Reach it through scoped(q, scope) (docs/data-layer.md).',
    ]);
  });

  it('q.query(SQL_CONST): SQL that is not a literal', async () => {
    expect(await confinement(`${DECLS}const SQL_CONST = 'SELECT 1';\nawait q.query(SQL_CONST);`)).toEqual([
      'coldwatch/raw-sql: .query() with SQL that is not a string literal: lint cannot tell which tables it reaches. Hand-written SQL belongs to the hot path or the platform (docs/data-layer.md); use scoped() / system() here.',
    ]);
  });
});

describe('every raw method of Db/Queryable, with every kind of argument', () => {
  const dynamic = (m: string) => new RegExp(`^coldwatch/raw-sql: \\.${m}\\(\\) with SQL that is not a string literal`);
  const tenant = (m: string, t: string) => new RegExp(`^coldwatch/raw-sql: \\.${m}\\(\\) names the tenant table ${t} `);

  it.each([
    ['query', 'q.query(sqlText)'],
    ['one', 'db.one(build())'],
    ['run', 'q.run(`SELECT * FROM ${table}`, [])'],
    ['exec', "q.exec('DELETE FROM ' + table)"],
    ['copyIn', 'q.copyIn(target, rows)'],
    ['query', 'q["query"](sqlText)'],
    ['run', 'q.run.call(q, sqlText)'],
    ['query', 'q.query.apply(q, [sqlText])'],
    ['one', 'db.one()'],
  ])('.%s: %s', async (method, call) => {
    const found = await confinement(`${DECLS}declare const sqlText: string, table: string, target: string, rows: string;\ndeclare function build(): string;\nawait ${call};`);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(dynamic(method));
  });

  it.each([
    ['query', 'sensor', "q.query('select s.id from sensor s where s.id = $1', [1])"],
    ['one', 'carrier', 'db.one(`SELECT name FROM "carrier" WHERE id = $1`, [1])'],
    ['run', 'gateway', "q.run('UPDATE public.gateway SET name = $1', ['x'])"],
    ['exec', 'sys_log', "q.exec('TRUNCATE sys_log')"],
    ['copyIn', 'reading', "q.copyIn('reading (sensor_id, ts, value)', rows)"],
    ['query', 'reading', "q.query('SELECT count(*) FROM reading_2026_05')"],
    ['query', 'reading', "q.query('SELECT * FROM reading_default')"],
    ['query', 'sensor', "q.query('SELECT g.id FROM param g, sensor s')"],
    ['query', 'customer', "q.query('SELECT id FROM customer')"],
  ])('.%s naming %s', async (method, table, call) => {
    const found = await confinement(`${DECLS}declare const rows: string;\nawait ${call};`);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(tenant(method, table));
  });

  it("dumpDataDir(): every customer's data in one call", async () => {
    expect(await confinement(`${DECLS}await db.dumpDataDir();`)).toEqual([
      "coldwatch/raw-sql: .dumpDataDir() hands over every customer's data: it belongs to the confined paths of eslint.config.js (docs/data-layer.md).",
    ]);
  });

  it('a raw method taken off its object with bind', async () => {
    const found = await confinement(`${DECLS}const run = q.run.bind(q);\nawait run('SELECT 1');`);
    expect(found).toEqual([expect.stringMatching(/^coldwatch\/raw-sql: \.run taken off its object/)]);
  });
});

describe('the other doors stay shut', () => {
  it('raw fragments inside the builders: sql`…` naming a tenant table, sql.raw/table/id', async () => {
    const head = `import { sql } from 'kysely';\ndeclare const name: string;\n`;
    for (const [frag, expected] of [
      ['sql`select s.* from param p, sensor s`', /^coldwatch\/sql-fragment: sql`…` names the tenant table sensor: raw fragments cannot be scoped/],
      ["sql`exists (select 1 from gateway g where g.id = ${1})`", /^coldwatch\/sql-fragment: sql`…` names the tenant table gateway:/],
      ["sql.table('sensor')", /^coldwatch\/sql-fragment: sql\.table\(\) with the tenant table sensor:/],
      ["sql.id('carrier')", /^coldwatch\/sql-fragment: sql\.id\(\) with the tenant table carrier:/],
      ['sql.raw(name)', /^coldwatch\/sql-fragment: sql\.raw\(\) with a name that is not a string literal:/],
    ] as const) {
      expect(await confinement(`${head}export const x = ${frag};`), frag).toEqual([expect.stringMatching(expected)]);
    }
  });

  it('crossTenant, whatever path names kysely.ts', async () => {
    for (const [path, from] of [
      [MODULE, '../../platform/db/kysely.js'],
      ['server/src/platform/http/scratch.ts', '../db/kysely.js'],
      ['server/src/scratch.ts', './platform/db/kysely.js'],
    ]) {
      const found = await confinement(`import { crossTenant } from '${from}';\ncrossTenant({} as any, 'because');`, path);
      expect(found, path).toEqual([expect.stringMatching(/^no-restricted-imports: .*crossTenant is confined/)]);
    }
  });

  it('scoped(q, { customerIds: null }), crossTenant by another name', async () => {
    const found = await confinement(`${DECLS}import { scoped } from '../../platform/db/scoped.js';\nscoped(q, { customerIds: null });`);
    expect(found).toEqual([expect.stringMatching(/^no-restricted-syntax: scoped\(q, \{ customerIds: null \}\) is crossTenant by another name/)]);
  });

  it('a Kysely of its own', async () => {
    const found = await confinement(`import { Kysely } from 'kysely';\nnew Kysely<any>({} as any);`);
    expect(found).toEqual([expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: .*a Kysely of its own bypasses the tenant scope/)]);
  });
});

describe('the allowed forms pass', () => {
  it('in a module: scoped(), system(), type imports, literals naming no tenant table, regular expressions', async () => {
    const code = `import { sql, type Kysely } from 'kysely';
import type { Kysely as K } from 'kysely';
import type { Queryable } from '../../platform/db/client.js';
import { system } from '../../platform/db/kysely.js';
import { scoped } from '../../platform/db/scoped.js';
import type { DB } from '../../platform/db/schema.gen.js';
declare const q: Queryable;
declare const scope: { customerIds: number[] | null; homeCustomerId: number };
const k: Kysely<DB> = scoped(q, scope);
const own: K<DB> = scoped(q, { customerIds: [scope.homeCustomerId] });
export const rows = await k.selectFrom('sensor').select(['id', sql<number>\`1\`.as('one'), sql<string>\`coalesce(\${sql.ref('name')}, '')\`.as('n')]).execute();
export const raw = sql.raw('now()');
export const mine = await own.selectFrom('app_user').select('id').execute();
export const params = await system(q).selectFrom('param').selectAll().execute();
await q.query('SELECT 1');
await q.query(\`SHOW server_version_num\`);
await q.exec('CHECKPOINT');
export const sensorParam = await q.one("SELECT value FROM param WHERE name = 'sensor' -- not FROM sensor");
const RE = /^(\\d+)$/;
export const m1 = RE.exec('12');
export const m2 = /x/.exec('x');
export const m3 = new RegExp('y').exec('y');
`;
    expect(await confinement(code)).toEqual([]);
  });

  it('in the confined paths: the hot path, the platform, the reasoned exceptions', async () => {
    const raw = `import type { Queryable } from '../platform/db/client.js';\ndeclare const q: Queryable;\ndeclare const text: string;\nawait q.run(text);\nawait q.copyIn('reading (sensor_id)', text);\n`;
    expect(await confinement(raw, 'server/src/ingest/scratch.ts')).toEqual([]);
    expect(await confinement(raw, 'server/src/modules/history/history.repository.ts')).toEqual([]);
    const cross = `import { crossTenant } from '../../platform/db/kysely.js';\ncrossTenant({} as any, 'counts of every customer, never rows');\n`;
    expect(await confinement(cross, 'server/src/modules/metrics/metrics.routes.ts')).toEqual([]);
    const fragment = `import { sql } from 'kysely';\nexport const x = sql\`delete from reading_5m where bucket < now()\`;\n`;
    expect(await confinement(fragment, 'server/src/jobs/scratch.ts')).toEqual([]);
    const inside = `import { Kysely } from 'kysely';\nimport { kyselyOf } from './kysely.js';\nexport const k = [Kysely, kyselyOf];\n`;
    expect(await confinement(inside, 'server/src/platform/db/scratch.ts')).toEqual([]);
  });
});
