// ESLint for every workspace (npm run lint, part of npm test). Type-aware rules are left out
// on purpose: tsc (npm run typecheck) already checks types, and lint stays fast.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/*
 * The data layer's confinement (docs/data-layer.md): hand-written SQL (`.query(`, `.one(`) and
 * the unscoped builder (`crossTenant`) are allowed only where they are the design: the hot
 * path (ingest, alarm, history readings, rollups), the platform's own plumbing (db, auth,
 * audit, jobs, seed) and the scripts. Anywhere else a module reaches tenant data through
 * scoped() and the lint fails.
 */
const RAW_SQL_ALLOWED = [
  'server/src/ingest/**',
  'server/src/alarm/**',
  'server/src/platform/db/**',
  'server/src/platform/jobs/**',
  // The replicas' channel: LISTEN/NOTIFY and advisory locks on its own connection, no tenant data.
  'server/src/platform/cluster/**',
  'server/src/platform/seed/**',
  'server/src/modules/history/history.repository.ts',
  'server/src/modules/history/carrierHistory.ts',
  'server/scripts/**',
  'bench/**',
  'tools/**',
  '**/*.test.ts',
  '**/*.fixture.ts',
  'server/test/**',
  'e2e/**',
];
const CROSS_TENANT_ALLOWED = [
  ...RAW_SQL_ALLOWED,
  'server/src/platform/auth/**',
  'server/src/platform/audit/**',
  'server/src/jobs/**',
  // Named, reasoned exceptions: login/session lookups, uniqueness across customers, the proxy switch, customer create/delete.
  'server/src/modules/user/user.repository.ts',
  'server/src/modules/user/user.service.ts',
  'server/src/modules/customer/customer.repository.ts',
  'server/src/modules/loginqr/loginqr.repository.ts',
  'server/src/modules/resource/menu.service.ts',
  // Counts across every customer for Prometheus, never rows.
  'server/src/modules/metrics/metrics.routes.ts',
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'web/dist/**', '**/*.gen.ts', 'data/**', '**/.vite/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/no-empty-object-type': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
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
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(query|one)$/][arguments.0.type=/Literal|TemplateLiteral/]",
          message: 'Hand-written SQL belongs to the hot path or the platform (docs/data-layer.md); use scoped() / system() here.',
        },
      ],
    },
  },
  {
    files: ['server/src/**/*.ts'],
    ignores: CROSS_TENANT_ALLOWED,
    rules: {
      'no-restricted-imports': ['error', { paths: [], patterns: [{ group: ['**/platform/db/kysely.js'], importNames: ['crossTenant'], message: 'crossTenant is confined (eslint.config.js); reach tenant data through scoped().' }] }],
    },
  },
);
