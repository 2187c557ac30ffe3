/**
 * How the CLI starts: --version and --help load none of the heavy modules a command needs (the
 * MCP SDK, zod, the AI SDK, ws, the tokenizer) — checked on the built CLI with a module hook that
 * records every module Node resolves — and a mistyped command or flag gets a suggestion.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli, tempRegistry } from '../helpers/cli';
import { NODE } from '../helpers/host';
import { CATALOGS_DIR, catalogServerScript } from '../fixtures/tool-catalogs/relevance';

const dir = mkdtempSync(join(tmpdir(), 'harbor-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Registered with --import before the CLI: appends every resolved module URL to a file.
const HOOK = join(dir, 'record-modules.mjs');
writeFileSync(
  HOOK,
  `import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
registerHooks({ resolve(specifier, context, next) { const result = next(specifier, context); appendFileSync(process.env.HARBOR_TEST_MODULES, result.url + '\\n'); return result; } });
`,
);

// Loaded with --require before the CLI: at exit, writes the Node internals the process loaded.
const INTERNALS = join(dir, 'record-internals.cjs');
writeFileSync(INTERNALS, `process.on('exit', () => require('node:fs').writeFileSync(process.env.HARBOR_TEST_INTERNALS, process.moduleLoadList.join('\\n')));\n`);

/** Every module URL Node resolved in a CLI run (npm packages, the built files, node: builtins). */
function modulesResolved(args: string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const record = join(dir, `modules-${args.join('_').replace(/[^\w-]/g, '')}.txt`);
  writeFileSync(record, '');
  const run = spawnSync(NODE, ['--import', pathToFileURL(HOOK).href, CLI, ...args], { env: { ...env, HARBOR_TEST_MODULES: record }, encoding: 'utf8' });
  expect(run.error).toBeUndefined();
  return [...new Set(readFileSync(record, 'utf8').split('\n').filter(Boolean))];
}

/** The package folders under node_modules that a CLI run loaded. */
function packagesLoaded(args: string[]): string[] {
  return packagesOf(modulesResolved(args));
}

function packagesOf(resolved: readonly string[]): string[] {
  return [...new Set(resolved.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []))].sort();
}

/** The tokenizer, from node_modules or as the build's own chunk of its one encoding (o200k_base). */
const loadsTokenizer = (resolved: readonly string[]) => resolved.some((url) => /\/node_modules\/gpt-tokenizer\/|\/o200k_base[^/]*\.js$/.test(url));

/** The contract's files (preload/contract/X.ts) whose code is in the built files a run loaded: the bundler marks each with a comment. */
function contractFilesIn(resolved: readonly string[]): string[] {
  const built = resolved.filter((url) => url.startsWith('file:') && url.endsWith('.js') && !url.includes('/node_modules/'));
  const marks = built.flatMap((url) => [...readFileSync(fileURLToPath(url), 'utf8').matchAll(/^\/\/ preload\/contract\/([\w-]+)\.ts$/gm)].map((m) => m[1]!));
  return [...new Set(marks)].sort();
}

/** Node's own internal modules a CLI run loaded ("NativeModule internal/fs/promises", …). */
function internalsLoaded(args: string[]): string[] {
  const record = join(dir, `internals-${args.join('_').replace(/[^\w-]/g, '')}.txt`);
  const run = spawnSync(NODE, ['--require', INTERNALS, CLI, ...args], { env: { ...process.env, HARBOR_TEST_INTERNALS: record }, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return readFileSync(record, 'utf8').split('\n');
}

describe('the CLI loads what a command needs, when it runs', () => {
  it.each([['--version'], ['--help'], ['servers', '--help'], ['no-such-command']].map((args) => [args.join(' '), args] as const))('harbor %s loads no package at all', (_, args) => {
    expect(packagesLoaded([...args])).toEqual([]);
  });

  // Each command's code is its own chunk, loaded when it runs: what starts is the parser, the
  // command table, the output and the redactor (about 41 kB; with every command loaded it was 136 kB).
  it.each([['--version'], ['--help'], ['servers', '--help'], ['no-such-command']].map((args) => [args.join(' '), args] as const))(
    'harbor %s loads at most 60 kB of the built CLI and no child_process, worker_threads or crypto',
    (_, args) => {
      const resolved = modulesResolved([...args]);
      const built = resolved.filter((url) => url.startsWith('file:') && !url.includes('/node_modules/') && url !== pathToFileURL(HOOK).href);
      expect(built.length).toBeGreaterThan(0);
      const bytes = built.reduce((sum, url) => sum + statSync(fileURLToPath(url)).size, 0);
      expect(bytes, built.join('\n')).toBeLessThanOrEqual(60_000);
      expect(resolved.filter((url) => ['node:child_process', 'node:worker_threads', 'node:crypto'].includes(url))).toEqual([]);
    },
  );

  // An ES import of node:fs or node:util evaluates all their lazy exports (fs.promises and its
  // streams, readline, worker_threads, the diff engine): a few ms of every start that --version has no use for.
  it('harbor --version loads none of the Node internals that node:fs and node:util load lazily', () => {
    const lazy = ['NativeModule internal/fs/promises', 'NativeModule internal/readline/interface', 'NativeModule worker_threads', 'NativeModule internal/util/diff'];
    expect(internalsLoaded(['--version']).filter((name) => lazy.includes(name))).toEqual([]);
  });

  // What a chat turn, run_code or a schema check needs: `tools` lists catalogs and needs none of it.
  const NOT_FOR_TOOLS = /^(ai|@ai-sdk\/.*|@vercel\/oidc|@jitl\/.*|quickjs-emscripten-core|ajv|ajv-formats|re2js)$/;

  it('harbor tools loads no model provider, AI SDK, code sandbox or schema validator (and no tokenizer without servers or --json)', () => {
    const empty = tempRegistry({});
    const time = tempRegistry({ time: { command: NODE, args: [catalogServerScript(), '--catalog', join(CATALOGS_DIR, 'servers/time.json')] } });
    try {
      const none = modulesResolved(['--config', empty.config, '--data-dir', empty.dir, 'tools']);
      expect(packagesOf(none).filter((p) => NOT_FOR_TOOLS.test(p))).toEqual([]);
      expect(loadsTokenizer(none)).toBe(false);
      // The person's listing shows no token counts: the tokenizer (and its tables' memory) stays out.
      const listed = modulesResolved(['--config', time.config, '--data-dir', time.dir, 'tools', '--yes']);
      expect(packagesOf(listed)).toEqual(expect.arrayContaining(['@modelcontextprotocol/client', 'minisearch']));
      expect(packagesOf(listed).filter((p) => NOT_FOR_TOOLS.test(p))).toEqual([]);
      expect(loadsTokenizer(listed)).toBe(false);
      // --json gives each tool its `tokens`: counted with the tokenizer (bundled as its one encoding).
      const json = modulesResolved(['--config', time.config, '--data-dir', time.dir, 'tools', '--yes', '--json']);
      expect(packagesOf(json)).toEqual(expect.arrayContaining(['@modelcontextprotocol/client']));
      expect(loadsTokenizer(json)).toBe(true);
      expect(packagesOf(json).filter((p) => NOT_FOR_TOOLS.test(p))).toEqual([]);
    } finally {
      empty.remove();
      time.remove();
    }
  });

  // Node's own modules a listing never uses, loaded by an ES import at every start (#32): node:http
  // (with its HTTP stack and undici: ~80 ms of CPU and 16 MB), TLS, DNS, workers, zlib, readline.
  it('harbor tools loads no HTTP, TLS, DNS, worker, zlib or readline module of Node', () => {
    const registry = tempRegistry({ time: { command: NODE, args: [catalogServerScript(), '--catalog', join(CATALOGS_DIR, 'servers/time.json')] } });
    try {
      const loaded = internalsLoaded(['--config', registry.config, '--data-dir', registry.dir, 'tools', '--yes']);
      const unused = /^NativeModule (http|https|http2|_http_\w+|tls|net\/?.*|dns|dns\/promises|worker_threads|zlib|readline|internal\/deps\/undici\/undici)$/;
      expect(loaded.filter((line) => unused.test(line) && line !== 'NativeModule net')).toEqual([]);
    } finally {
      registry.remove();
    }
  });

  // The SDK client bundles its own Ajv (draft-07 class and ajv-formats) and loads it at start, as
  // the bare client does: a draft-07 schema (what every zod-to-json-schema server declares, e.g.
  // server-memory) is checked with that copy instead of loading a second one from node_modules (#32),
  // when Ajv is needed at all: a one-shot command first interprets a schema (interpreted-schema.ts).
  it('harbor call of a tool whose schemas declare draft-07 loads no second Ajv, and still refuses bad arguments', async () => {
    const registry = tempRegistry({ memory: { command: NODE, args: [catalogServerScript(), '--catalog', join(CATALOGS_DIR, 'servers/memory.json')] } });
    try {
      const called = modulesResolved(['--config', registry.config, '--data-dir', registry.dir, 'call', 'memory', 'read_graph', '--args', '{}', '--yes']);
      expect(packagesOf(called)).toEqual(expect.arrayContaining(['@modelcontextprotocol/client']));
      expect(packagesOf(called).filter((p) => /^(ajv|ajv-formats)$/.test(p))).toEqual([]);
      // A one-shot command interprets its schemas (no Ajv code generation for one check of each).
      expect(packagesOf(called)).toContain('@cfworker/json-schema');
      const refused = await runCli(['--config', registry.config, '--data-dir', registry.dir, 'call', 'memory', 'search_nodes', '--args', '{"query":5}', '--yes']);
      expect(refused.code, refused.stderr).not.toBe(0);
      expect(refused.stderr).toMatch(/"query" must be a string \(got 5\)/);
    } finally {
      registry.remove();
    }
  });

  // jsonc-parser (a UMD package of many files: ~15–20 ms of CPU to load) reads harbor.json only
  // when it is not plain JSON; plain JSON is read by JSON.parse (#32).
  it('harbor tools reads a plain-JSON harbor.json without jsonc-parser, and one with comments with it', () => {
    const registry = tempRegistry({ time: { command: NODE, args: [catalogServerScript(), '--catalog', join(CATALOGS_DIR, 'servers/time.json')] } });
    try {
      const plain = modulesResolved(['--config', registry.config, '--data-dir', registry.dir, 'tools', '--yes']);
      expect(packagesOf(plain)).toEqual(expect.arrayContaining(['@modelcontextprotocol/client']));
      expect(packagesOf(plain)).not.toContain('jsonc-parser');
      writeFileSync(registry.config, `// my servers\n${readFileSync(registry.config, 'utf8').replace(/\n}\s*$/, ',\n}\n')}`);
      const record = join(dir, 'modules-jsonc-comments.txt');
      writeFileSync(record, '');
      const run = spawnSync(NODE, ['--import', pathToFileURL(HOOK).href, CLI, '--config', registry.config, '--data-dir', registry.dir, 'tools', 'time', '--yes'], { env: { ...process.env, HARBOR_TEST_MODULES: record }, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/get_current_time/);
      expect(packagesOf(readFileSync(record, 'utf8').split('\n').filter(Boolean))).toContain('jsonc-parser');
    } finally {
      registry.remove();
    }
  });

  // The contract's schemas (~90 kB built, ~90 ms of CPU to construct at load 8) check what main
  // sends out when contract checks are on (tests, HARBOR_CONTRACT_CHECKS=1); a one-shot command
  // with them off builds none of the commands', events' or wire schemas (#32 goal 1).
  it('harbor tools and harbor call build none of the contract\'s command, event or wire schemas unless contract checks are on', () => {
    const registry = tempRegistry({ memory: { command: NODE, args: [catalogServerScript(), '--catalog', join(CATALOGS_DIR, 'servers/memory.json')] } });
    const { HARBOR_CONTRACT_CHECKS: _on, ...checksOff } = process.env;
    const SCHEMA_MAPS = ['api', 'commands', 'events', 'installs', 'apps', 'registry', 'settings'];
    try {
      const base = ['--config', registry.config, '--data-dir', registry.dir];
      for (const args of [['tools', 'memory', '--yes'], ['call', 'memory', 'read_graph', '--args', '{}', '--yes']]) {
        const off = modulesResolved([...base, ...args], checksOff);
        expect(packagesOf(off)).toEqual(expect.arrayContaining(['@modelcontextprotocol/client']));
        expect(contractFilesIn(off).filter((file) => SCHEMA_MAPS.includes(file)), args[0]).toEqual([]);
      }
      // With the checks on, the events' schemas are loaded and every payload is checked.
      const on = modulesResolved([...base, 'tools', 'memory', '--yes'], { ...checksOff, HARBOR_CONTRACT_CHECKS: '1' });
      expect(contractFilesIn(on)).toEqual(expect.arrayContaining(['events']));
    } finally {
      registry.remove();
    }
  });

  // The SDK's skills extension (~13 ms of CPU to load) is imported when a server declares it.
  it('harbor tools and harbor call of a server that publishes no skills load no skills extension of the SDK', () => {
    const registry = tempRegistry({ memory: { command: NODE, args: [catalogServerScript(), '--catalog', join(CATALOGS_DIR, 'servers/memory.json')] } });
    try {
      const base = ['--config', registry.config, '--data-dir', registry.dir];
      for (const args of [['tools', 'memory', '--yes'], ['call', 'memory', 'read_graph', '--args', '{}', '--yes']]) {
        const loaded = modulesResolved([...base, ...args]);
        expect(packagesOf(loaded)).toEqual(expect.arrayContaining(['@modelcontextprotocol/client']));
        expect(loaded.filter((url) => /\/ext\/skills\//.test(url)), args[0]).toEqual([]);
      }
    } finally {
      registry.remove();
    }
  });

  it.runIf(process.platform !== 'win32')(
    'the login shell is asked for its PATH only when a launch looks the command up, once until an rc file changes or --fresh-env',
    async () => {
      const marker = join(dir, 'login-shell-started');
      const shell = join(dir, 'marking-shell');
      // Called as `$SHELL -ilc SCRIPT`: note the start, then run SCRIPT.
      writeFileSync(shell, `#!/bin/sh\necho started >> "${marker}"\nexec /bin/sh -c "$2"\n`);
      chmodSync(shell, 0o755);
      // A home of its own: its .profile is one of the rc files the cached PATH is keyed by.
      const home = mkdtempSync(join(dir, 'home-'));
      writeFileSync(join(home, '.profile'), '# nothing\n');
      // A server found only through PATH, and a script run by its absolute path that asks env for sh.
      const bin = mkdtempSync(join(dir, 'bin-'));
      const catalog = [catalogServerScript(), '--catalog', join(CATALOGS_DIR, 'servers/time.json')];
      writeFileSync(join(bin, 'harbor-path-server'), `#!/usr/bin/env sh\nexec "${NODE}" ${catalog.map((a) => `"${a}"`).join(' ')}\n`);
      chmodSync(join(bin, 'harbor-path-server'), 0o755);
      const env = { SHELL: shell, HOME: home, PATH: `${bin}:${process.env.PATH ?? ''}` };
      const data = mkdtempSync(join(dir, 'data-'));
      const starts = () => (existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean).length : 0);
      const tools = async (servers: Record<string, unknown>, ...flags: string[]) => {
        const registry = tempRegistry(servers);
        try {
          const run = await runCli(['--config', registry.config, '--data-dir', data, 'tools', '--yes', ...flags], { env });
          expect(run.code, run.stderr).toBe(0);
        } finally {
          registry.remove();
        }
      };
      await tools({});
      expect(starts(), 'no server').toBe(0);
      await tools({ time: { command: NODE, args: catalog } });
      expect(starts(), 'an absolute command that needs no PATH lookup').toBe(0);
      await tools({ time: { command: join(bin, 'harbor-path-server') } });
      expect(starts(), 'an absolute script whose #! asks env for its interpreter').toBe(1);
      await tools({ time: { command: 'harbor-path-server' } });
      expect(starts(), 'a command looked up on PATH: the cached PATH serves').toBe(1);
      await tools({ time: { command: 'harbor-path-server' } }, '--fresh-env');
      expect(starts(), '--fresh-env asks the shell again').toBe(2);
      utimesSync(join(home, '.profile'), new Date(), new Date(Date.now() + 60_000));
      await tools({ time: { command: 'harbor-path-server' } });
      expect(starts(), 'an rc file changed: asked again').toBe(3);
    },
    120_000,
  );

  // Peak memory (#32 goal 2): V8 doubles its semi-spaces while the Host's modules load and keeps
  // them committed to the exit (~11 MB of a one-shot command); a one-shot command keeps them at
  // their starting size. Read at exit through a --require hook.
  it('a one-shot command keeps V8\'s young generation at its starting size', () => {
    const hook = join(dir, 'record-new-space.cjs');
    writeFileSync(hook, `process.on('exit', () => require('node:fs').writeFileSync(process.env.HARBOR_TEST_NEW_SPACE, String(require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size)));\n`);
    const record = join(dir, 'new-space.txt');
    const registry = tempRegistry({ time: { command: NODE, args: [catalogServerScript(), '--catalog', join(CATALOGS_DIR, 'servers/time.json')] } });
    try {
      const run = spawnSync(NODE, ['--require', hook, CLI, '--config', registry.config, '--data-dir', registry.dir, 'tools', '--yes'], { env: { ...process.env, HARBOR_TEST_NEW_SPACE: record }, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      // V8 starts a semi-space at 1 MiB and, held, grows it to 2 MiB at most; let go, to 8-16 MiB here.
      expect(Number(readFileSync(record, 'utf8'))).toBeLessThanOrEqual(2 * 1024 * 1024);
    } finally {
      registry.remove();
    }
  });

  it('a command that needs the Host loads them (the probe sees modules)', () => {
    const registry = tempRegistry({});
    try {
      const loaded = packagesLoaded(['--config', registry.config, '--data-dir', registry.dir, 'info']);
      expect(loaded).toEqual(expect.arrayContaining(['@modelcontextprotocol/client', 'zod']));
    } finally {
      registry.remove();
    }
  });
});

describe('a mistyped command or flag', () => {
  it('harbor sevrers: exit 2, "did you mean servers?"', async () => {
    const run = await runCli(['sevrers']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown command "sevrers"\. Did you mean "servers"\?/);
  });

  it('harbor servers --jsno: exit 2, "did you mean --json?"; nothing close: no guess', async () => {
    const run = await runCli(['servers', '--jsno']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown option '--jsno'\. Did you mean "--json"\?/);
    const far = await runCli(['xyzzy']);
    expect(far.stderr).not.toMatch(/Did you mean/);
  });
});
