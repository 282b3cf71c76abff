#!/usr/bin/env node
// Fails when a doc names something in the code that no longer exists.
//
// Reads README.md and docs/*.md, takes every inline code span (`…`; fenced blocks are left
// out: they hold diagrams and shell sessions) and checks what in it looks like code:
//   - a file path (`server/src/main.ts`, `platform/auth/scope.ts`, `NNNN_name.sql`,
//     `<domain>.routes.ts`, `locales/{zh-CN,en-US}/errors.json`): some file or folder of the
//     repo ends with it (`<x>`, `NNNN`, `*` and `…` match any one name part);
//   - a name: camelCase or PascalCase (`scoped`, `TenantScopeError`), snake_case (a table or a
//     column: `role_scene`), SCREAMING_SNAKE (`TENANT_COLUMN`), or any word called like a
//     function (`mutate()`): it occurs as a word in the code of the source tree: server, web,
//     packages, scripts, e2e, bench, tools, deploy and the root's config files. In TypeScript
//     and JavaScript only identifiers, string and template text count, never comments, so a
//     name that survives only in a comment still fails; SQL files (the migrations) count
//     without their `--` comments, JSON (the message catalogues) and config files as they are.
// It cannot see a changed signature: a name that exists with other parameters passes.
//
// Run: `node scripts/check-docs.mjs` (exit 1 and one line per stale name); the server's test
// suite runs it (server/test/docs.test.ts), so `npm test` fails on a stale doc.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const self = path.relative(root, fileURLToPath(import.meta.url));

/**
 * Names a doc may give that are not in the code, each with its reason. Keep it short: a name
 * belongs here only when it is right in the doc and cannot be found in our source by nature.
 */
const EXCEPTIONS = new Map([
  // A spec term: the spec's forwarding-server module, whose call pattern the API follows (docs/api.md).
  // Other programs' names, which our source has no reason to spell.
  ['executeSql', "pg-boss's database adapter, weighed and declined (docs/jobs.md)"],
  ['shared_buffers', 'a PostgreSQL setting'],
  ['n_tup_hot_upd', "a column of PostgreSQL's pg_stat_user_tables"],
  ['max_inflight_messages', 'a Mosquitto setting'],
  ['defaultAlgorithm', "Ant Design's theme.defaultAlgorithm"],
  ['setContent', "Playwright's page.setContent"],
  ['useSize', 'the name Vite gives a web chunk after the antd hook module that starts it'],
  ['FALLBACK_THROTTLE_MS', "React's constant that holds a Suspense fallback for 300 ms"],
  // A name the doc itself makes: the database its bench recipe creates (docs/performance.md).
  ['cw_bench', 'the bench database of the recipe in docs/performance.md'],
]);

/** Where the code lives (the docs are checked against these, never against themselves). */
const SOURCE_DIRS = ['server', 'web', 'packages', 'scripts', 'e2e', 'bench', 'tools', 'deploy', '.ci'];
const ROOT_FILES = ['package.json', 'eslint.config.js', 'tsconfig.base.json', 'Dockerfile', 'compose.yaml', '.dockerignore', '.gitignore'];
/** Never walked: dependencies, build and run output. */
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'data', '.vite', 'test-results', '.tmp']);
const CODE_EXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
const TEXT_EXT = /\.(sql|json|ya?ml|sh|html|css|conf|txt|toml)$|(^|\/)(Dockerfile|run|\.[a-z]+ignore)$/;

/** Every file and folder of the repo (relative paths), for the path check. */
function walk(dir, out) {
  let entries;
  try {
    entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch (err) {
    if (err.code === 'ENOENT') return out; // a folder that went away while we walked
    throw err;
  }
  for (const e of entries) {
    if (SKIP_DIRS.has(e.name)) continue;
    const rel = dir ? `${dir}/${e.name}` : e.name;
    out.push(rel);
    if (e.isDirectory()) walk(rel, out);
  }
  return out;
}
const allPaths = walk('', []);

/** The words of the source tree's code. */
const words = new Set();
const addWords = (text) => {
  for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) words.add(m[0]);
};
function addCode(file, text) {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : file.endsWith('.ts') || file.endsWith('.mts') || file.endsWith('.cts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const visit = (node) => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) words.add(node.text.replace(/^#/, ''));
    else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || ts.isJsxText(node) || ts.isRegularExpressionLiteral(node)) addWords(node.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
const sourceFiles = [
  ...ROOT_FILES.filter((f) => existsSync(path.join(root, f))),
  ...allPaths.filter((p) => SOURCE_DIRS.some((d) => p.startsWith(`${d}/`))),
].filter((p) => p !== self && (CODE_EXT.test(p) || TEXT_EXT.test(p)));
/** A file's text; undefined when it went away since the walk (others at work in the tree). */
function readIfThere(file) {
  try {
    return readFileSync(path.join(root, file), 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  }
}
for (const file of sourceFiles) {
  const text = readIfThere(file);
  if (text === undefined) continue;
  if (CODE_EXT.test(file)) addCode(file, text);
  else if (file.endsWith('.sql')) addWords(text.replace(/--.*$/gm, ''));
  else addWords(text);
}

/** The inline code spans of a markdown text, with their line numbers. */
function codeSpans(md) {
  const spans = [];
  const lines = md.replace(/\\`/g, '\uE000').split('\n'); // `sql\`…\`` in a span: an escaped backtick
  let fence = null;
  let para = [];
  const flush = () => {
    const text = para.map((p) => p.text).join('\n');
    for (const m of text.matchAll(/(`+)([\s\S]*?[^`])\1(?!`)/g)) {
      const line = para[0].n + text.slice(0, m.index).split('\n').length - 1;
      spans.push({ line, code: m[2].trim().replace(/\uE000/g, '`') });
    }
    para = [];
  };
  lines.forEach((text, i) => {
    const f = /^\s*(```+|~~~+)/.exec(text);
    if (fence) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length) fence = null;
      return;
    }
    if (f) {
      if (para.length) flush();
      fence = f[1];
      return;
    }
    if (!text.trim()) {
      if (para.length) flush();
      return;
    }
    para.push({ n: i + 1, text });
  });
  if (para.length) flush();
  return spans;
}

const escape = (s) => s.replace(/[.+^$()|[\]\\]/g, '\\$&');
/** `{a,b}` alternatives of a path pattern, expanded. */
function expand(p) {
  const m = /\{([^{}]*,[^{}]*)\}/.exec(p);
  if (!m) return [p];
  return m[1].split(',').flatMap((alt) => expand(p.slice(0, m.index) + alt + p.slice(m.index + m[0].length)));
}
/** Whether some file or folder of the repo ends with this path (placeholders match one name part). */
function pathExists(p) {
  const clean = p.replace(/\/+$/, '').replace(/^\.\//, '');
  return expand(clean).every((one) => {
    if (existsSync(path.join(root, one))) return true;
    // What `npm run build` makes (web/dist, server/dist/main.js) is not there in a fresh clone: its workspace is.
    const built = /^(\w[\w-]*)\/dist(\/|$)/.exec(one);
    if (built && existsSync(path.join(root, built[1], 'package.json'))) return true;
    const body = one
      .split(/(<[^>]+>|NNNN(?:_[a-z*]+)?|\*\*?|…)/)
      .map((part, i) => (i % 2 ? (part.startsWith('NNNN') ? '\\d{4}[^/]*' : '[^/]*') : escape(part)))
      .join('');
    const re = new RegExp(one.startsWith('.') ? `${body}$` : `(^|/)${body}$`);
    return allPaths.some((a) => re.test(a)) || inPackage(one);
  });
}
/** A file of an installed package (`lib/handlers/publish.js` of aedes), named where the docs explain a library's behaviour. */
const packages = readdirSync(path.join(root, 'node_modules')).flatMap((d) => (d.startsWith('@') ? readdirSync(path.join(root, 'node_modules', d)).map((p) => `${d}/${p}`) : [d]));
const inPackage = (p) => !/[<*…]/.test(p) && (existsSync(path.join(root, 'node_modules', p)) || packages.some((d) => existsSync(path.join(root, 'node_modules', d, p))));

const PATH_CHARS = /^[\w.\-/<>{},*…@]+$/;
const FILE_EXT = /\.(ts|tsx|mts|js|mjs|cjs|json|sql|md|ya?ml|sh|html|css|conf|acl)$/;
/**
 * Where a path without an extension may start: the repo's folders and the folders of its
 * source roots (`platform/…`, `modules/…`, `features/…`, `db/…`). Anything else with a slash
 * is an API call (`gas/import`), an MQTT topic (`cc/{sn}/up/data`) or a MIME type.
 */
const childDirs = (dir) => (existsSync(path.join(root, dir)) ? readdirSync(path.join(root, dir), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name) : []);
const PATH_ROOTS = new Set([
  ...childDirs('').filter((d) => !SKIP_DIRS.has(d) && !d.startsWith('.')),
  ...['server/src', 'server/src/platform', 'web/src', 'packages/contract/src'].flatMap(childDirs),
]);
/** A path of the repo (`./`, `<…>`, `{a,b}` and `NNNN` allowed); `@scope/pkg` and `DATA_DIR/pg` are not. */
function looksLikePath(s) {
  if (!PATH_CHARS.test(s) || s.startsWith('/') || s.startsWith('@')) return false;
  if (FILE_EXT.test(s)) return true;
  const first = s.replace(/^\.\//, '').split('/')[0];
  return s.includes('/') && PATH_ROOTS.has(first);
}

const isMixedCase = (w) => /[a-z]/.test(w) && /[A-Z]/.test(w.slice(1));
const isSnake = (w) => /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(w);
const isScreaming = (w) => /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(w);
/** Placeholders of a pattern the doc spells out (`NNNN_x.sql`, `reading_YYYY_MM`), not names. */
const isPlaceholder = (w) => /NNNN|YYYY/.test(w);
const KEYWORDS = new Set(['async', 'await', 'function', 'if', 'for', 'while', 'switch', 'return', 'new', 'typeof', 'catch', 'import', 'export', 'delete', 'void', 'in', 'of']);
/** A span that is a reference to code: a (dotted) name, or a call of one (`mutate(db, …)`, `.query('…')`). */
const REFERENCE = /^(?:new\s+|await\s+)?\.?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(\s*\([\s\S]*\))?;?$/;
const TOKEN = /(?<![\w$-])[A-Za-z_$][\w$]*/g;

/**
 * What in one code span must exist: [{kind, name}]. A span that is a reference checks its
 * name's parts that look like code (and the called name, whatever its case); any other span
 * (an SQL statement, a shell line, a config line, a JSON shape) checks only its camelCase and
 * PascalCase words: snake_case there is as often another program's setting as ours.
 */
function namesIn(code) {
  if (looksLikePath(code)) return [{ kind: 'path', name: code }];
  const out = [];
  const check = (w, called) => {
    if (isPlaceholder(w) || KEYWORDS.has(w)) return;
    if (called || isMixedCase(w) || isSnake(w) || isScreaming(w)) out.push({ kind: called ? 'function' : 'name', name: w });
  };
  const ref = REFERENCE.exec(code);
  let rest = code;
  if (ref) {
    const parts = ref[1].split('.');
    parts.forEach((w, i) => check(w, Boolean(ref[2]) && i === parts.length - 1));
    rest = ref[2] ?? '';
  }
  // URLs, API paths and MQTT topics are the API's business, not the source tree's.
  const text = rest.replace(/\S*:\/\/\S*/g, ' ').replace(/(^|[\s'"(])\/\S*/g, ' ');
  for (const m of text.matchAll(TOKEN)) if (isMixedCase(m[0]) && !isPlaceholder(m[0])) out.push({ kind: 'name', name: m[0] });
  return out;
}

/** GitHub's anchor of a heading. */
const slug = (h) => h.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
const anchorsOf = new Map();
function anchors(file) {
  if (!anchorsOf.has(file)) {
    const md = readFileSync(file, 'utf8').replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
    anchorsOf.set(file, new Set([...md.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]))));
  }
  return anchorsOf.get(file);
}
/** Relative links of a doc that lead nowhere: a missing file, or a heading the page does not have. */
function brokenLinks(doc, md) {
  const out = [];
  const text = md.replace(/^(```|~~~)[\s\S]*?^\1/gm, (b) => b.replace(/[^\n]/g, ' '));
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1];
    if (/^[a-z]+:/i.test(target)) continue;
    const [file, anchor] = target.split('#');
    const abs = file ? path.resolve(path.dirname(path.join(root, doc)), file) : path.join(root, doc);
    const line = text.slice(0, m.index).split('\n').length;
    if (!existsSync(abs)) out.push({ doc, line, kind: 'link', name: target, span: target });
    else if (anchor && abs.endsWith('.md') && !anchors(abs).has(anchor)) out.push({ doc, line, kind: 'link', name: target, span: target });
  }
  return out;
}

const docs = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const failures = [];
const usedExceptions = new Set();
for (const doc of docs) {
  const md = readFileSync(path.join(root, doc), 'utf8');
  failures.push(...brokenLinks(doc, md));
  for (const span of codeSpans(md)) {
    for (const { kind, name } of namesIn(span.code)) {
      if (EXCEPTIONS.has(name)) {
        usedExceptions.add(name);
        continue;
      }
      const ok = kind === 'path' ? pathExists(name) : words.has(name.replace(/^\$/, '')) || words.has(name);
      if (!ok) failures.push({ doc, line: span.line, kind, name, span: span.code });
    }
  }
}

const unused = [...EXCEPTIONS.keys()].filter((n) => !usedExceptions.has(n) || words.has(n));
for (const f of failures) {
  const context = f.span === f.name ? '' : `  (in \`${f.span.length > 80 ? `${f.span.slice(0, 77)}...` : f.span}\`)`;
  console.log(f.kind === 'link' ? `${f.doc}:${f.line}: link (${f.name}) leads to no file or heading` : `${f.doc}:${f.line}: ${f.kind} \`${f.name}\` is not in the source tree${context}`);
}
for (const n of unused) console.log(`scripts/check-docs.mjs: the exception \`${n}\` is ${words.has(n) ? 'in the source tree' : 'named by no doc'} now; remove it`);
if (failures.length || unused.length) {
  console.log(`\n${failures.length} stale name(s) in ${new Set(failures.map((f) => f.doc)).size} doc(s)`);
  process.exitCode = 1;
} else {
  console.log(`docs: every code name and path in ${docs.length} files exists (${sourceFiles.length} source files read)`);
}
