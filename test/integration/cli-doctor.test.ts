/**
 * `harbor doctor [SERVER] [--json]` against real servers (issue 28 §3): each step ok / warn /
 * fail / skip with its message and fix, one JSON line per server, and the exit code of
 * `harbor servers` (0 all ok, 3 a connection failure, 2 a registry problem, 4 only decisions missing).
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthFixture, type RunningAuthFixture } from '../fixtures/auth/start';
import { runCli, tempRegistry } from '../helpers/cli';
import { FEATURE_SERVER, FIXTURES, NODE } from '../helpers/host';

interface Check {
  id: string;
  status: 'ok' | 'warn' | 'fail' | 'skip';
  message: string;
  fix?: string;
}
interface Report {
  server: string;
  ok: boolean;
  checks: Check[];
}

const check = (report: Report, id: string): Check | undefined => report.checks.find((c) => c.id === id);

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('harbor doctor', () => {
  const trusted = tempRegistry({
    modern: { command: NODE, args: [FEATURE_SERVER], trusted: true },
    legacy: { command: NODE, args: [join(FIXTURES, 'legacy/legacy-stdio.mjs')], trusted: true },
  });
  afterAll(() => trusted.remove());

  it('a 2026-07-28 and a 2025-11-25 server: every step ok, the era and protocol named, counts given; exit 0', async () => {
    const run = await runCli(['--config', trusted.config, '--data-dir', trusted.dir, '--json', 'doctor']);
    expect(run.code, run.stderr).toBe(0);
    const [modern, legacy] = run.json<Report>();
    expect(modern).toMatchObject({ server: 'modern', ok: true });
    expect(modern!.checks.map((c) => c.id)).toEqual(['registry', 'command', 'runtime', 'cwd', 'consent', 'secrets', 'handshake', 'catalog', 'sandbox']);
    expect(check(modern!, 'runtime')?.message).toMatch(/^node v\d+/);
    expect(check(modern!, 'handshake')?.message).toMatch(/modern era, protocol 2026-07-28, ready in \d+ ms/);
    expect(check(modern!, 'catalog')?.message).toMatch(/^tools \d+, resources \d+/);
    expect(legacy).toMatchObject({ server: 'legacy', ok: true });
    expect(check(legacy!, 'handshake')?.message).toMatch(/legacy-stdio 1\.0\.0, legacy era, protocol 2025-11-25/);
    // Only the contract's fields.
    for (const c of [...modern!.checks, ...legacy!.checks]) expect(Object.keys(c).every((k) => ['id', 'status', 'message', 'fix'].includes(k))).toBe(true);
  });

  it('the human output: one block per server, a line per step, the fix under a failure', async () => {
    const reg = tempRegistry({ missing: { command: 'no-such-program-harbor', trusted: true } });
    try {
      const run = await runCli(['--config', reg.config, '--data-dir', reg.dir, 'doctor', 'missing']);
      expect(run.stdout).toMatch(/^missing: problems found\n {2}ok {4}registry/);
      expect(run.stdout).toMatch(/ {2}FAIL {2}command +"no-such-program-harbor" was not found on the PATH Harbor gives servers \(searched: [^)]*\/[^)]*\)\n {8}fix: Install "no-such-program-harbor", or put its full path in "command"\./);
      expect(run.stdout).toMatch(/skip {2}handshake +not tried/);
      expect(run.code).toBe(3);
    } finally {
      reg.remove();
    }
  });

  it('a server that crashes at start: the handshake fails with its stderr tail; a chatty stdout is named; exit 3', async () => {
    const reg = tempRegistry({
      crash: { command: NODE, args: [join(FIXTURES, 'adversarial/crash-at-startup.mjs')], trusted: true },
      banner: { command: NODE, args: [join(FIXTURES, 'adversarial/banner-only.mjs')], trusted: true },
    });
    try {
      const run = await runCli(['--config', reg.config, '--data-dir', reg.dir, '--json', 'doctor'], { timeoutMs: 90_000 });
      const [crash, banner] = run.json<Report>();
      expect(crash!.ok).toBe(false);
      expect(check(crash!, 'handshake')).toMatchObject({ status: 'fail' });
      expect(check(crash!, 'handshake')!.message).toContain('fatal: missing config FOO');
      expect(check(crash!, 'catalog')).toMatchObject({ status: 'skip' });
      expect(check(banner!, 'handshake')).toMatchObject({ status: 'fail' });
      expect(check(banner!, 'handshake')!.message).toContain('Starting Streamable HTTP server...');
      expect(run.code).toBe(3);
    } finally {
      reg.remove();
    }
  });

  it('a closed port: the address step names host:port; TLS, the first request and the handshake are skipped; exit 3', async () => {
    const port = await closedPort();
    const reg = tempRegistry({ closed: { url: `http://127.0.0.1:${port}/mcp`, trusted: true } });
    try {
      const run = await runCli(['--config', reg.config, '--data-dir', reg.dir, '--json', 'doctor', 'closed']);
      const [report] = run.json<Report>();
      expect(check(report!, 'address')).toMatchObject({ status: 'fail' });
      expect(check(report!, 'address')!.message).toMatch(new RegExp(`^127\\.0\\.0\\.1:${port} does not accept connections: .*ECONNREFUSED`));
      expect(check(report!, 'tls')!.status).toBe('skip');
      expect(check(report!, 'first-request')!.status).toBe('skip');
      expect(check(report!, 'handshake')!.status).toBe('skip');
      expect(run.code).toBe(3);
    } finally {
      reg.remove();
    }
  });

  describe('an HTTP server that needs sign-in', () => {
    let fixture: RunningAuthFixture;
    beforeAll(async () => {
      fixture = await startAuthFixture();
    });
    afterAll(async () => fixture.kill());

    it('not approved: only the person’s decision is missing (exit 4) and no request was sent', async () => {
      const reg = tempRegistry({ remote: { url: fixture.mcp } });
      try {
        const before = (await fixture.stats()).mcpRequests;
        const run = await runCli(['--config', reg.config, '--data-dir', reg.dir, '--json', 'doctor', 'remote']);
        const [report] = run.json<Report>();
        expect(check(report!, 'consent')).toMatchObject({ status: 'fail', fix: 'Approve it: harbor consent grant-launch remote (or Start in the app).' });
        expect(check(report!, 'first-request')!.status).toBe('skip');
        expect((await fixture.stats()).mcpRequests).toBe(before);
        expect(run.code).toBe(4);
      } finally {
        reg.remove();
      }
    });

    it('approved: the first answer says it needs sign-in, Harbor holds none, the fix is harbor login; exit 3', async () => {
      const reg = tempRegistry({ remote: { url: fixture.mcp, trusted: true } });
      try {
        const run = await runCli(['--config', reg.config, '--data-dir', reg.dir, '--json', 'doctor', 'remote']);
        const [report] = run.json<Report>();
        expect(check(report!, 'address')!.status).toBe('ok');
        expect(check(report!, 'first-request')!.message).toMatch(/^answers 401 without credentials/);
        expect(check(report!, 'sign-in')).toEqual({ id: 'sign-in', status: 'fail', message: 'it needs sign-in, and Harbor holds none for it', fix: 'Sign in: harbor login remote (or Sign in on its card).' });
        expect(check(report!, 'handshake')!.status).toBe('skip');
        expect(run.code).toBe(3);
      } finally {
        reg.remove();
      }
    });
  });

  it('a registry problem: exit 2, the registry step fails and names the fix', async () => {
    const reg = tempRegistry({ vscode: { command: NODE, args: ['${input:root-dir}'], trusted: true } });
    try {
      const run = await runCli(['--config', reg.config, '--data-dir', reg.dir, '--json', 'doctor']);
      const [report] = run.json<Report>();
      expect(check(report!, 'registry')).toMatchObject({ status: 'fail' });
      expect(check(report!, 'registry')!.message).toContain('${input:root-dir}');
      expect(run.code).toBe(2);
    } finally {
      reg.remove();
    }
  });

  it('a missing secret and a missing working folder are named with their fixes', async () => {
    const reg = tempRegistry({ env: { command: NODE, args: [FEATURE_SERVER], env: { TOKEN: '${secret:doctor-missing-token}' }, cwd: '/no/such/folder/harbor', trusted: true } });
    try {
      const run = await runCli(['--config', reg.config, '--data-dir', reg.dir, '--json', 'doctor', 'env']);
      const [report] = run.json<Report>();
      expect(check(report!, 'cwd')).toMatchObject({ status: 'fail', message: 'the working folder /no/such/folder/harbor does not exist' });
      expect(check(report!, 'secrets')?.status).toBe('fail');
      expect(run.code).not.toBe(0);
    } finally {
      reg.remove();
    }
  });

  it('an unknown server name is a usage error naming the known ones', async () => {
    const run = await runCli(['--config', trusted.config, '--data-dir', trusted.dir, 'doctor', 'nope']);
    expect(run.stderr).toMatch(/No server named "nope"\. Known servers: modern, legacy/);
    expect(run.code).toBe(2);
  });
});
