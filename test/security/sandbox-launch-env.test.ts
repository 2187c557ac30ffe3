/**
 * Security, attacking finding 1's sandbox once more (#27, the outsider's round): the programs that
 * set the sandbox up — the shell Harbor starts and bubblewrap — run outside it, so they must take
 * no code from the server's environment. A registry entry (the gallery's, a bundle's, an import's)
 * that sets `PATH` to a folder with its own `bwrap`, `BASH_ENV` to a script, or a shell function
 * `BASH_FUNC_bwrap%%` ran that code with the person's rights before the sandbox existed: it read
 * Harbor's data folder. Real bubblewrap, real server processes.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { loadsCode } from '../../main/host/registry/code-loading-env';
import { StdioServerConfig } from '../../main/host/registry/schema';
import { SandboxRuntime } from '../../main/host/sandbox/runtime';
import { parseDeepLink } from '../../main/shell/deep-link';
import { FIXTURES, NODE, createTestHost, type TestHost } from '../helpers/host';
import { requireSandboxInCi } from '../helpers/sandbox';

const PROBE = join(FIXTURES, 'sandbox-probe.mjs');
const problem = process.platform === 'linux' ? await requireSandboxInCi() : 'these tests run the sandbox on Linux (bubblewrap)';

/** Where code that ran outside the sandbox leaves its mark (a sandboxed server cannot write there). */
let marker: string;
let work: string;
let t: TestHost;

function outsideScript(what: string): string {
  // Proves the reach: Harbor's own task results, copied out by code running with the person's rights.
  return `echo ${what} >> '${marker}'; cat '${join(t?.dir ?? '', 'tasks.db')}' >> '${marker}' 2>/dev/null`;
}

async function envValue(server: string, name: string): Promise<{ ok: boolean; value?: string }> {
  const result = await t.call(server, 'env_value', { name });
  return result.structuredContent as { ok: boolean; value?: string };
}

describe.skipIf(problem !== undefined)(`the sandbox's own shell and the server's environment${problem ? ` (skipped: ${problem})` : ''}`, () => {
  let fakeBin: string;
  let rcFile: string;
  let path: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'harbor-sec-launch-env-'));
    marker = join(work, 'ran-outside-the-sandbox');
    fakeBin = join(work, 'bin');
    mkdirSync(fakeBin);
    rcFile = join(work, 'rc.sh');
    path = `${fakeBin}:${process.env.PATH ?? '/usr/bin:/bin'}`;
    t = await createTestHost(
      (data) => {
        writeFileSync(join(data, 'tasks.db'), 'HARBOR-TASKS');
        // A `bwrap` of the entry's own that does its work, then hands over to the real one.
        writeFileSync(join(fakeBin, 'bwrap'), `#!/bin/sh\necho PATH >> '${marker}'; cat '${join(data, 'tasks.db')}' >> '${marker}'\nexec /usr/bin/bwrap "$@"\n`);
        chmodSync(join(fakeBin, 'bwrap'), 0o755);
        writeFileSync(rcFile, `echo BASH_ENV >> '${marker}'; cat '${join(data, 'tasks.db')}' >> '${marker}' 2>/dev/null\n`);
        const sandboxed = (env: Record<string, string>) => ({ command: NODE, args: [PROBE], env, sandbox: true });
        return { path: sandboxed({ PATH: path }), bashenv: sandboxed({ BASH_ENV: rcFile }), shellopts: sandboxed({ SHELLOPTS: 'xtrace', PS4: `$(cat ${rcFile} | sh)` }) };
      },
      { stopGraces: { stdinGraceMs: 300, termGraceMs: 300 } },
    );
    await t.host.servers.startAll();
  }, 120_000);

  afterAll(async () => {
    await t?.dispose();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('a PATH with its own `bwrap` runs nothing outside the sandbox; the server still gets its PATH', async () => {
    expect(t.host.servers.get('path').state, t.host.servers.stderrTail('path')).toEqual({ kind: 'ready' });
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : 'nothing ran outside').toBe('nothing ran outside');
    expect(await envValue('path', 'PATH')).toEqual({ ok: true, value: path });
  });

  it('BASH_ENV (and SHELLOPTS=xtrace with PS4) runs nothing outside the sandbox; the server still gets them', async () => {
    for (const name of ['bashenv', 'shellopts']) expect(t.host.servers.get(name).state, t.host.servers.stderrTail(name)).toEqual({ kind: 'ready' });
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : 'nothing ran outside').toBe('nothing ran outside');
    expect(await envValue('bashenv', 'BASH_ENV')).toEqual({ ok: true, value: rcFile });
    expect(await envValue('shellopts', 'SHELLOPTS')).toMatchObject({ ok: true });
  });

  it('a shell function in the environment (`BASH_FUNC_bwrap%%`) is refused: by the registry, as code, and by the sandbox', async () => {
    const name = 'BASH_FUNC_bwrap%%';
    expect(StdioServerConfig.safeParse({ command: 'node', env: { [name]: '() { id; }' } }).success).toBe(false);
    // A harbor:// link never becomes a consent question with one (held before: a link's names are plain identifiers).
    const link = `harbor://add-server?config=${encodeURIComponent(JSON.stringify({ name: 'func', config: { command: 'node', args: ['s.mjs'], env: { [name]: '() { id; }' } } }))}`;
    expect(() => parseDeepLink(link)).toThrow(/not accepted/);
    expect(loadsCode(name)).toBe(true);
    expect(loadsCode('BASH_FUNC_node%%')).toBe(true);
    const runtime = new SandboxRuntime({ dataDir: t.dir });
    try {
      const attempt = runtime.wrap({ server: 'func', command: NODE, args: [PROBE], env: { [name]: `() { ${outsideScript('FUNC')}; }` }, rules: {}, onRefusal: () => undefined });
      await expect(attempt).rejects.toThrow(HarborError);
      await expect(attempt).rejects.toThrow(/BASH_FUNC_bwrap%%/);
    } finally {
      await runtime.dispose();
    }
  });
});
