// ESLint for every workspace (npm run lint, part of npm test). Type-aware rules are left out
// on purpose: tsc (npm run typecheck) already checks types, and lint stays fast.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readFileSync } from 'node:fs';

/*
 * The data layer's confinement (docs/data-layer.md, "Hand-written SQL: the hot path only").
 * A module reaches customer data through scoped(q, scope), and tables that hold no customer's
 * data through system(q). Three kinds of door bypass that, and each is confined here:
 *  - the raw methods of Db/Queryable (platform/db/client.ts): `query`, `one`, `run`, `exec`,
 *    `copyIn`, and PGlite's `dumpDataDir` (rule coldwatch/raw-sql, below);
 *  - raw fragments inside the builders: sql`…` naming a tenant table, sql.raw/table/id
 *    (rule coldwatch/sql-fragment);
 *  - the unscoped builder `crossTenant(q, why)` and `scoped(q, { customerIds: null })`;
 *  - the builder's internals: anything of platform/db/kysely.ts but `system` and `crossTenant`,
 *    and a Kysely of one's own (`new Kysely`) outside platform/db.
 * Every entry of the two allow-lists below says why it may use the door.
 */

// The tenant tables: read from the generated schema (TENANT_COLUMN, every table with a
// customer_id, and customer itself), never copied here, so a new migration extends the rule.
const TENANT_TABLES = (() => {
  const text = readFileSync(new URL('./server/src/platform/db/schema.gen.ts', import.meta.url), 'utf8');
  const block = /export const TENANT_COLUMN = \{([\s\S]*?)\n\}/.exec(text);
  const names = block ? [...block[1].matchAll(/^\s*([a-z_][a-z0-9_]*)\s*:/gm)].map((m) => m[1]) : [];
  if (!names.includes('sensor')) throw new Error('eslint.config.js: TENANT_COLUMN not found in server/src/platform/db/schema.gen.ts');
  return new Set(names);
})();

/** The tenant tables an SQL text names: as identifiers (quoted or not, schema-qualified or not),
 * and their partitions (reading_default, reading_2026_05); string literals and comments aside. */
function tenantTablesIn(sqlText) {
  const text = sqlText
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''");
  const found = new Set();
  for (const m of text.matchAll(/"([^"]+)"|([A-Za-z_][A-Za-z0-9_$]*)/g)) {
    const id = m[1] ?? m[2].toLowerCase();
    const base = id.replace(/_(?:default|\d[\d_]*)$/, '');
    if (TENANT_TABLES.has(id)) found.add(id);
    else if (base !== id && TENANT_TABLES.has(base)) found.add(base);
  }
  return [...found];
}

// Db/Queryable's methods that take SQL text (copyIn: a COPY target) or hand over raw data.
const RAW_METHODS = new Set(['query', 'one', 'run', 'exec', 'copyIn']);
const RAW_DATA_METHODS = new Set(['dumpDataDir']);
// Kysely's `sql` helpers that put text or a table name into a statement unchecked by the scope.
const SQL_NAMES = new Set(['raw', 'table', 'id']);

/** The name a call's member is called by: `q.run(`, `q['run'](`. */
function memberName(node) {
  if (node?.type !== 'MemberExpression') return undefined;
  if (!node.computed && node.property.type === 'Identifier') return node.property.name;
  if (node.computed && node.property.type === 'Literal' && typeof node.property.value === 'string') return node.property.value;
  if (node.computed && node.property.type === 'TemplateLiteral' && !node.property.expressions.length) return node.property.quasis[0].value.cooked;
  return undefined;
}

const isRegexExpr = (n) => (n?.type === 'Literal' && !!n.regex) || (n?.type === 'NewExpression' && n.callee.type === 'Identifier' && n.callee.name === 'RegExp');

/** `/re/.exec(s)`, `new RegExp(x).exec(s)`, or `RE.exec(s)` where `const RE = /re/`: not SQL. */
function isRegexReceiver(context, call, obj) {
  if (isRegexExpr(obj)) return true;
  if (obj.type !== 'Identifier') return false;
  for (let scope = context.sourceCode.getScope(call); scope; scope = scope.upper) {
    const v = scope.set.get(obj.name);
    if (!v) continue;
    const def = v.defs[0];
    return def?.type === 'Variable' && def.parent.kind === 'const' && isRegexExpr(def.node.init);
  }
  return false;
}

const rawSql = {
  meta: {
    type: 'problem',
    docs: { description: 'Hand-written SQL only as a string literal naming no tenant table, outside the confined paths' },
    schema: [],
    messages: {
      dynamic:
        '.{{method}}() with SQL that is not a string literal: lint cannot tell which tables it reaches. Hand-written SQL belongs to the hot path or the platform (docs/data-layer.md); use scoped() / system() here.',
      tenant:
        '.{{method}}() names the tenant table {{tables}} in hand-written SQL, which no scope filters. Reach it through scoped(q, scope) (docs/data-layer.md).',
      detached: '.{{method}} taken off its object: a raw SQL method is called directly with a string literal, or not at all here (docs/data-layer.md).',
      rawData: ".{{method}}() hands over every customer's data: it belongs to the confined paths of eslint.config.js (docs/data-layer.md).",
    },
  },
  create(context) {
    function checkSql(node, method, arg) {
      let text;
      if (arg?.type === 'Literal' && typeof arg.value === 'string') text = arg.value;
      else if (arg?.type === 'TemplateLiteral' && !arg.expressions.length) text = arg.quasis[0].value.cooked ?? '';
      if (text === undefined) return context.report({ node, messageId: 'dynamic', data: { method } });
      const tables = tenantTablesIn(text);
      if (tables.length) context.report({ node, messageId: 'tenant', data: { method, tables: tables.join(', ') } });
    }
    return {
      CallExpression(node) {
        const name = memberName(node.callee);
        if (!name) return;
        if (RAW_DATA_METHODS.has(name)) return context.report({ node, messageId: 'rawData', data: { method: name } });
        if (RAW_METHODS.has(name)) {
          if (name === 'exec' && isRegexReceiver(context, node, node.callee.object)) return;
          return checkSql(node, name, node.arguments[0]);
        }
        // q.query.call(q, sql), q.query.apply(q, [sql]), q.query.bind(q)
        const inner = memberName(node.callee.object);
        if (!inner || !(RAW_METHODS.has(inner) || RAW_DATA_METHODS.has(inner))) return;
        if (inner === 'exec' && isRegexReceiver(context, node, node.callee.object.object)) return;
        if (RAW_DATA_METHODS.has(inner)) return context.report({ node, messageId: 'rawData', data: { method: inner } });
        if (name === 'call') return checkSql(node, inner, node.arguments[1]);
        if (name === 'apply') {
          const list = node.arguments[1];
          return checkSql(node, inner, list?.type === 'ArrayExpression' ? list.elements[0] : undefined);
        }
        if (name === 'bind') return context.report({ node, messageId: 'detached', data: { method: inner } });
      },
    };
  },
};

/*
 * Raw fragments inside the builders. scoped() and system() check them at run time only after
 * FROM/JOIN/UPDATE/INTO (tenant.ts): `FROM param p, sensor s`, sql.table('sensor') or
 * sql.id('sensor') inside scoped() pass there, unfiltered. So a module writes no sql`…` naming
 * a tenant table and no sql.raw/table/id but with a literal naming none. Where crossTenant is
 * allowed, its fragments are as free as its builder.
 */
const sqlFragment = {
  meta: {
    type: 'problem',
    docs: { description: 'No raw fragment naming a tenant table inside the builders, outside the cross-tenant paths' },
    schema: [],
    messages: {
      sqlTenant: 'sql`…` names the tenant table {{tables}}: raw fragments cannot be scoped; write it with the query builder through scoped(q, scope) (docs/data-layer.md).',
      sqlName: 'sql.{{method}}() with {{what}}: a table reached this way is not scoped; write it with the query builder through scoped(q, scope) (docs/data-layer.md).',
    },
  },
  create(context) {
    return {
      TaggedTemplateExpression(node) {
        if (node.tag.type !== 'Identifier' || node.tag.name !== 'sql') return;
        const tables = tenantTablesIn(node.quasi.quasis.map((q) => q.value.cooked ?? '').join(' ? '));
        if (tables.length) context.report({ node, messageId: 'sqlTenant', data: { tables: tables.join(', ') } });
      },
      CallExpression(node) {
        const name = memberName(node.callee);
        if (!name || !SQL_NAMES.has(name) || node.callee.object.type !== 'Identifier' || node.callee.object.name !== 'sql') return;
        const arg = node.arguments[0];
        if (arg?.type !== 'Literal' || typeof arg.value !== 'string') {
          return context.report({ node, messageId: 'sqlName', data: { method: name, what: 'a name that is not a string literal' } });
        }
        const tables = tenantTablesIn(arg.value);
        if (tables.length) context.report({ node, messageId: 'sqlName', data: { method: name, what: `the tenant table ${tables.join(', ')}` } });
      },
    };
  },
};

const coldwatch = { rules: { 'raw-sql': rawSql, 'sql-fragment': sqlFragment } };

const RAW_SQL_ALLOWED = [
  // The hot path: the ingest writer, partitions and rollups; the alarm evaluator and notifier.
  // Cross-tenant by nature (a batch holds every customer's readings); exact SQL decides throughput.
  'server/src/ingest/**',
  'server/src/alarm/**',
  // The data layer itself: the clients, the migrations, the builders and their dialect.
  'server/src/platform/db/**',
  // The job runner's claim (SKIP LOCKED) and leases: its own tables, no tenant rows.
  'server/src/platform/jobs/**',
  // The replicas' channel: LISTEN/NOTIFY and advisory locks on its own connection, no tenant data.
  'server/src/platform/cluster/**',
  // Seeding: the root account, a customer with its administrator and default roles, and the
  // menu, written before any scope exists.
  'server/src/platform/seed/**',
  // The demo: writes the demo customer's rows and their history before any scope exists.
  'server/src/demo/**',
  // History downsampling over the readings of sensors already found in scope (by their ids).
  'server/src/modules/history/history.repository.ts',
  'server/src/modules/history/carrierHistory.ts',
  // Statistics over the readings and rollups of carriers already found in scope (by their sensors' ids).
  'server/src/modules/statistic/readings.ts',
  'server/src/modules/history/carrierValues.ts',
  // Detail data pages over the readings of carriers and sensors already found in scope (by their ids).
  'server/src/modules/detaildata/readings.ts',
  // Backup and restore (spec §3): a copy of the whole database, every customer's rows by nature,
  // read and written table by table on its own connection (pg_dump, COPY, PGlite's data directory).
  'server/src/modules/backup/backup.service.ts',
  'server/src/modules/backup/logical.ts',
  'server/src/modules/backup/logicalLoad.ts',
  'server/src/modules/backup/pgCopyOut.ts',
  // Operator scripts (migrate, db types, audit verify), run by hand outside any request.
  'server/scripts/**',
  // Benchmarks and tools: outside the server, they load and measure data of every customer.
  'bench/**',
  'tools/**',
  // Tests and their fixtures set up and inspect every customer's rows on purpose.
  '**/*.test.ts',
  '**/*.fixture.ts',
  'server/test/**',
  'e2e/**',
];
const CROSS_TENANT_ALLOWED = [
  ...RAW_SQL_ALLOWED,
  // Session resolution and login: the session and its user are found before any scope exists.
  'server/src/platform/auth/**',
  // The audit log: one hash chain over every customer's system-log rows.
  'server/src/platform/audit/**',
  // Scheduled jobs (retention, config timeouts, loan returns, relay switching): every customer's rows.
  'server/src/jobs/**',
  // Login and session lookups by account (before a scope exists), a proxy user's governed
  // customers (outside its current scope), a row whose owner the caller checked against the scope.
  'server/src/modules/user/user.repository.ts',
  // Account, mobile and e-mail are unique across customers.
  'server/src/modules/user/user.service.ts',
  // Uniqueness across customers (name, code, e-mail, phone, accounts), customer create (it makes
  // the tenant) and delete (it empties every table of the customer), the proxy switch, the caller's own row.
  'server/src/modules/customer/customer.repository.ts',
  // Login QR keys are read before a session exists.
  'server/src/modules/loginqr/loginqr.repository.ts',
  // A user's own roles, whichever customer it currently works in (the proxy switch).
  'server/src/modules/resource/menu.service.ts',
  // Counts across every customer for Prometheus, never rows.
  'server/src/modules/metrics/metrics.routes.ts',
];

// platform/db/kysely.ts as its importers say it (`../../platform/db/kysely.js`, `../db/kysely.js`).
const KYSELY_TS = '(^|/)db/kysely(\\.[cm]?[jt]s)?$';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'web/dist/**', '**/*.gen.ts', 'data/**', '**/.vite/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/no-empty-object-type': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // Tests may use `any`: they poke at answers of unknown shape, hand malformed input on
    // purpose and stub parts of a library's object; a wrong type there fails the test itself.
    files: ['**/*.test.{ts,tsx}', '**/*.fixture.{ts,tsx}', '**/test/**/*.{ts,tsx}', 'web/src/ui/testing/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['server/src/**/*.ts'],
    ignores: RAW_SQL_ALLOWED,
    plugins: { coldwatch },
    rules: { 'coldwatch/raw-sql': 'error' },
  },
  {
    files: ['server/src/**/*.ts'],
    ignores: CROSS_TENANT_ALLOWED,
    plugins: { coldwatch },
    rules: {
      'coldwatch/sql-fragment': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: [],
          patterns: [
            { regex: KYSELY_TS, importNames: ['crossTenant'], message: 'crossTenant is confined (eslint.config.js); reach tenant data through scoped().' },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='scoped'] > ObjectExpression > Property[key.name='customerIds'][value.type='Literal'][value.raw='null']",
          message: 'scoped(q, { customerIds: null }) is crossTenant by another name: it is confined like crossTenant (eslint.config.js).',
        },
      ],
    },
  },
  {
    // The builder's internals stay in platform/db: kyselyOf (the unguarded builder) was
    // exported for scoped.ts and is not any more; nothing but system and crossTenant leaves.
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/platform/db/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'kysely',
              importNames: ['Kysely', 'PostgresDialect'],
              allowTypeImports: true,
              message: 'a Kysely of its own bypasses the tenant scope: use scoped() / system() from platform/db (docs/data-layer.md).',
            },
          ],
          patterns: [
            {
              regex: KYSELY_TS,
              allowImportNames: ['system', 'crossTenant'],
              message: 'only system() and crossTenant() leave platform/db/kysely.ts; the builder itself is reached through scoped() (docs/data-layer.md).',
            },
          ],
        },
      ],
    },
  },
);
