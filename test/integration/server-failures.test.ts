/**
 * Failures say why: the server's stderr tail with every failure (the CLI prints it too), stray
 * stdout named at once instead of a 36-second timeout, and every transport a remote was tried on.
 * Real processes: an npx-like command whose install fails, a program printing a banner instead of
 * speaking MCP, an HTTP listener answering 404.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { FIXTURES, NODE, createTestHost, type TestHost } from '../helpers/host';

const FAKE_NPX = join(FIXTURES, 'adversarial/fake-npx.mjs');
const BANNER_ONLY = join(FIXTURES, 'adversarial/banner-only.mjs');
const CRASH_ON_CALL = join(FIXTURES, 'adversarial/crash-on-call.mjs');
const HANGS_ON_CALL = join(FIXTURES, 'adversarial/hangs-on-call.mjs');

let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

describe('a failed npm install behind npx', () => {
  const registry = tempRegistry({ npxfail: { command: NODE, args: [FAKE_NPX, '-y', '@example/missing-server'] } });
  const g = ['--config', registry.config, '--data-dir', registry.dir];
  afterAll(() => registry.remove());

  it('shows npm’s errors with the failure of a call', async () => {
    const run = await runCli([...g, 'call', 'npxfail', 'anything', '--yes']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/"npxfail" closed the connection while connecting \(exited with code 1\)/);
    expect(run.stderr).toMatch(/\| npm error code E404/);
    expect(run.stderr).toMatch(/\| npm error 404 {2}'@example\/missing-server@\*' is not in this registry\./);
  });

  it('shows npm’s errors when the install hangs and the connect times out', async () => {
    current = await createTestHost(
      { npxhang: { command: NODE, args: [FAKE_NPX, '-y', '@example/missing-server', '--hang'] } },
      { probeTimeoutMs: 300, connectTimeoutMs: 1_000, stopGraces: { stdinGraceMs: 200, termGraceMs: 200 } },
    );
    const state = (await current.host.servers.start('npxhang')).state;
    expect(state).toMatchObject({ kind: 'error', code: 'TIMEOUT' });
    expect(state.kind === 'error' && state.stderrTail).toMatch(/npm error code E404/);
  });
});

describe("the server's stderr with a failed call", () => {
  const registry = tempRegistry({ crash: { command: NODE, args: [CRASH_ON_CALL] }, stuck: { command: NODE, args: [HANGS_ON_CALL] } });
  const g = ['--config', registry.config, '--data-dir', registry.dir];
  afterAll(() => registry.remove());

  it('when the server dies during the call', async () => {
    const run = await runCli([...g, 'call', 'crash', 'work', '--yes']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/\| about to crash \(call 1\)/);
  });

  it('when the call times out', async () => {
    const run = await runCli([...g, 'call', 'stuck', 'work', '--timeout', '800', '--yes']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/"stuck" did not answer in time while calling tool work/);
    expect(run.stderr).toMatch(/\| work: waiting for a lock that is never released/);
  });
});

describe('non-MCP output on stdout', () => {
  it('fails the connect within seconds, quoting what the server wrote', async () => {
    const registry = tempRegistry({ banner: { command: NODE, args: [BANNER_ONLY] } });
    try {
      const started = Date.now();
      const run = await runCli(['--config', registry.config, '--data-dir', registry.dir, 'call', 'banner', 'anything', '--yes']);
      const seconds = (Date.now() - started) / 1000;
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/"banner" wrote non-MCP output on stdout: "Starting Streamable HTTP server\.\.\.", and no MCP message/);
      // 2 s of silence after the banner, not the era probe (4 s) and the 30 s connect timeout.
      expect(seconds).toBeLessThan(15);
    } finally {
      registry.remove();
    }
  });

  it('fails within about 2 s of non-MCP output followed by silence, quoting every line of it', async () => {
    const registry = tempRegistry({});
    const stampFile = join(registry.dir, 'printed-at');
    writeFileSync(registry.config, JSON.stringify({ mcpServers: { usage: { command: NODE, args: [BANNER_ONLY, '--usage', `--stamp=${stampFile}`], trusted: true } } }));
    try {
      let failedAt = 0;
      const run = await runCli(['--config', registry.config, '--data-dir', registry.dir, 'call', 'usage', 'anything', '--yes'], {
        onStderrLine: (line) => {
          if (failedAt === 0 && line.includes('non-MCP output')) failedAt = Date.now();
        },
      });
      expect(run.code, run.stderr).toBe(3);
      const printedAt = Number(readFileSync(stampFile, 'utf8'));
      // About 2 s of silence after the output, and room for a busy machine; it was 8 s (the 4 s era probe, then 3 s more).
      expect(failedAt - printedAt).toBeLessThan(3_500);
      expect(run.stderr).toContain('"Usage: banner [--port N] [--host H]", "  --port N   listen on port N", "  --host H   listen on host H"');
    } finally {
      registry.remove();
    }
  });

  it('does not fail a server that prints a banner and then speaks MCP, even a slow one', async () => {
    current = await createTestHost({ late: { command: NODE, args: [BANNER_ONLY, '--serve-after=800'] } });
    const state = (await current.host.servers.start('late')).state;
    expect(state, JSON.stringify(state)).toMatchObject({ kind: 'ready' });
    expect((await current.call('late', 'hello')).content).toEqual([{ type: 'text', text: 'hello' }]);
  });
});

describe('a URL that answers 404', () => {
  it('names every transport tried and how each failed', async () => {
    const listener = http.createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n'));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = listener.address() as AddressInfo;
      current = await createTestHost({ gone: { url: `http://127.0.0.1:${port}/mcp` } });
      const state = (await current.host.servers.start('gone')).state;
      expect(state).toMatchObject({ kind: 'error', code: 'CONNECT_FAILED' });
      expect(state.kind === 'error' && state.message).toBe(
        'Cannot connect to "gone" over any transport. Streamable HTTP: 404 Not Found; HTTP+SSE fallback: 404 Not Found. Check the URL.',
      );
    } finally {
      listener.closeAllConnections();
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});
