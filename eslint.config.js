// Lint is where the house rules live (docs/architecture.md §4): they fail `npm run lint`, and
// test/unit/house-rules.test.ts proves each rule still fires on a deliberate violation.
import { builtinModules } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { cycleThrough } from './scripts/import-cycles.mjs';
import noSilentCatch from './scripts/no-silent-catch.mjs';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/** Files in main/ that may import electron: the shell and nothing else. */
const ELECTRON_SHELL = ['main/index.ts', 'main/window.ts', 'main/ipc.ts', 'main/shell/**/*.ts'];

// --- House rule: layering inside the host. The folders of main/host, lowest first: a file may
// import only from its own folder and from folders to its LEFT — type-only imports, re-exports and
// import() types included, because the rule is about the direction of the design, not bundle size.
//
//   base (the root files: lifecycle, errors, events, paths, …) ← registry ← servers ← secrets ← auth
//     ← consent ← skills ← apps ← tools ← code-mode ← chat ← import ← services ← host.ts
//
// code-mode (the script sandbox and its tools API) sits above tools (names, schemas, results it
// builds on) and consent (which it never bypasses: calls go through a broker port the Host fills
// with its gated call door), and below chat, whose run_code tool uses it.
//
// Why this order: each folder builds on the ones before it and never reaches up (registry knows
// nothing of launching, servers nothing of OAuth, chat nothing of the Host), so there are no cycles
// between folders and a folder can be read and tested with only what lies to its left. When a lower
// folder needs something from a higher one, it declares a port (an interface) that the higher one
// implements: servers/transport-auth.ts is implemented by auth. host.ts, the façade and only door,
// sits on top. A new folder must be placed in this list before anything may import it.
const HOST_LAYERS = ['base', 'log', 'registry', 'sandbox', 'servers', 'tasks', 'secrets', 'auth', 'consent', 'skills', 'apps', 'tools', 'code-mode', 'chat', 'sampling', 'import', 'installs', 'bundles', 'gallery', 'services', 'host.ts'];
const HOST_ROOT = join(import.meta.dirname, 'main', 'host');

/** The layer of a file or module path inside main/host ('base', a folder, 'host.ts'), or undefined outside it. */
function hostLayer(path) {
  const inside = relative(HOST_ROOT, path);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  const [first, ...rest] = inside.split(sep);
  if (rest.length > 0) return first;
  return first.replace(/\.[cm]?[jt]sx?$/, '') === 'host' ? 'host.ts' : 'base';
}

const hostLayering = {
  meta: {
    type: 'problem',
    docs: { description: 'Inside main/host, a folder imports only from itself and the folders to its left (see HOST_LAYERS).' },
    schema: [],
  },
  create(context) {
    const from = hostLayer(context.filename);
    if (from === undefined) return {};
    const chain = `base ← ${HOST_LAYERS.slice(1).join(' ← ')}`;
    const check = (source) => {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const to = hostLayer(resolve(dirname(context.filename), source.value));
      if (to === undefined || to === from) return;
      const [rankFrom, rankTo] = [HOST_LAYERS.indexOf(from), HOST_LAYERS.indexOf(to)];
      if (rankFrom === -1 || rankTo === -1) {
        const unknown = rankFrom === -1 ? from : to;
        context.report({ node: source, message: `House rule (host layering): main/host/${unknown}/ has no place in the host's layers (${chain}). Add it to HOST_LAYERS in eslint.config.js, where it belongs in that order.` });
      } else if (rankTo > rankFrom) {
        context.report({
          node: source,
          message: `House rule (host layering): ${from} may not import ${to} ("${source.value}"). Inside main/host a folder imports only from itself and the folders to its left: ${chain}. Move what both need down, or declare a port in ${from} that ${to} implements.`,
        });
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) => check(node.source ?? node.argument?.literal),
      TSExternalModuleReference: (node) => check(node.expression),
    };
  },
};

// --- House rule: one door. The outside world — the CLI, the desktop shell, browser mode and the
// IPC handlers — reaches the Host through its doors (main/host/services/doors.ts: every result and
// event leaves through the one redaction exit) and hears a read-only event stream. So it never
// takes as a value what the doors stand in front of: a service, the consent gate and its store, the
// code sandbox, a server connection, or an event bus to emit on. Types (what the doors return) and
// pure helpers (errors, lifecycle, paths, launch lines, …) stay open.
const FRONT_DOORS = ['main/cli/**/*.ts', 'main/shell/**/*.ts', 'main/web/**/*.ts', 'main/index.ts', 'main/ipc.ts', 'main/dispatch.ts', 'main/contract-handlers.ts', 'main/install-handlers.ts'];
/** Paths inside main/host (no extension) behind the doors; a trailing '/' is a whole folder. */
const BEHIND_THE_DOORS = ['services/', 'consent/gate', 'consent/store', 'consent/policy', 'code-mode/sandbox', 'code-mode/sandbox-worker', 'events', 'servers/manager', 'servers/connection', 'servers/channel', 'tasks/service', 'chat/service'];

const frontDoor = {
  meta: {
    type: 'problem',
    docs: { description: 'The CLI, the shell, browser mode and the IPC handlers reach the Host through its doors only (see BEHIND_THE_DOORS).' },
    schema: [],
  },
  create(context) {
    const behind = (source) => {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return undefined;
      const inside = relative(HOST_ROOT, resolve(dirname(context.filename), source.value)).split(sep).join('/').replace(/\.[cm]?[jt]sx?$/, '');
      if (inside.startsWith('..') || isAbsolute(inside)) return undefined;
      return BEHIND_THE_DOORS.find((p) => (p.endsWith('/') ? inside.startsWith(p) : inside === p));
    };
    const check = (node, source) => {
      const hit = behind(source);
      if (hit === undefined) return;
      context.report({
        node: source,
        message: `House rule (one door): "${source.value}" is behind the Host's doors (main/host/${hit}). The CLI, the shell, browser mode and the IPC handlers call the Host's doors (host.servers, host.calls, host.code, host.shell, …; main/host/services/doors.ts) and listen to host.events; types may be imported with \`import type\`.`,
      });
    };
    const typeOnly = (node) => node.importKind === 'type' || node.exportKind === 'type' || (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
    return {
      ImportDeclaration: (node) => typeOnly(node) || check(node, node.source),
      ExportNamedDeclaration: (node) => typeOnly(node) || check(node, node.source),
      ExportAllDeclaration: (node) => typeOnly(node) || check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

// --- House rule: no import cycles among our own files (scripts/import-cycles.mjs finds them;
// `import type` does not count). A cycle makes load order decide what is defined when.
const noImportCycle = {
  meta: { type: 'problem', docs: { description: 'No import cycle among main/, preload/ and renderer/src/ files.' }, schema: [] },
  create(context) {
    return {
      Program: (node) => {
        const cycle = cycleThrough(context.filename, context.sourceCode.text);
        if (!cycle) return;
        const names = cycle.map((f) => relative(import.meta.dirname, f)).join(' → ');
        context.report({ node, message: `House rule (no import cycle): ${names}. Move what both sides need into a module of its own that both import.` });
      },
    };
  },
};

const harbor = { rules: { 'host-layering': hostLayering, 'front-door': frontDoor, 'no-import-cycle': noImportCycle, 'no-silent-catch': noSilentCatch } };

export default tseslint.config(
  {
    ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'test/output/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.node.json', './tsconfig.web.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  // --- House rule: main/ runs under plain Node, except the thin Electron shell.
  {
    files: ['main/**/*.ts'],
    ignores: ELECTRON_SHELL,
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'Only main/index.ts, main/window.ts and main/ipc.ts may import electron: everything else in main runs under plain Node.' }],
        patterns: [
          { group: ['**/renderer/**', '**/renderer'], message: 'main never imports the renderer.' },
          { group: ['**/preload/index', '**/preload/index.*'], message: 'main never imports the preload script; import preload/contract instead.' },
        ],
      }],
    },
  },
  // --- House rule: the renderer knows only window.harbor (or the web bridge) and the contract.
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'electron', message: 'The renderer never imports electron; use window.harbor.' },
          ...nodeBuiltins.map((name) => ({ name, message: 'The renderer never imports Node modules.' })),
        ],
        patterns: [
          { group: ['node:*'], message: 'The renderer never imports Node modules.' },
          { group: ['**/main/**', '**/main'], message: 'The renderer never imports main; talk through the contract.' },
          { group: ['**/preload/index', '**/preload/index.*'], message: 'The renderer imports only preload/contract.' },
        ],
      }],
    },
  },
  // --- House rule: the preload imports electron and the contract, nothing else.
  {
    files: ['preload/index.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: '^(?!electron$|[.]/contract$)', message: 'preload/index.ts imports only electron and ./contract.' }],
      }],
    },
  },
  // --- House rule: layering inside the host (HOST_LAYERS above says the direction and why).
  {
    files: ['main/host/**/*.ts'],
    plugins: { harbor },
    rules: { 'harbor/host-layering': 'error' },
  },
  // --- House rule: no import cycles (noImportCycle above).
  {
    files: ['main/**/*.ts', 'preload/**/*.ts', 'renderer/src/**/*.{ts,tsx}'],
    plugins: { harbor },
    rules: { 'harbor/no-import-cycle': 'error' },
  },
  // --- House rule: no silent catch (scripts/no-silent-catch.mjs): an error dropped on purpose says
  // why in a comment beside it; everything else is handled or logged with what was being done.
  {
    files: ['main/**/*.ts', 'preload/**/*.ts'],
    plugins: { harbor },
    rules: { 'harbor/no-silent-catch': 'error' },
  },
  // --- House rule: one door (FRONT_DOORS above says who and why).
  {
    files: FRONT_DOORS,
    plugins: { harbor },
    rules: { 'harbor/front-door': 'error' },
  },
  // --- House rule: the contract is pure data shapes (main, preload and renderer all import it):
  // zod and its own files, nothing else.
  {
    files: ['preload/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: '^(?!zod$|[.]/[\\w-]+$)', message: 'preload/contract/ imports only zod and its own files.' }],
      }],
    },
  },
);
