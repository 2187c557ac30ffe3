/**
 * Protocol details against a real server from npm: server-everything 2026.8.31 in its Streamable
 * HTTP and HTTP+SSE modes, behind a proxy that counts what Harbor puts on the wire.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startCountingProxy, type CountingProxy } from '../helpers/counting-proxy';
import { startEverything, type RunningEverything } from '../helpers/everything-http';
import { EVERYTHING_SERVER, NODE, createTestHost, type TestHost } from '../helpers/host';

let everything: RunningEverything | undefined;
let proxy: CountingProxy | undefined;
let current: TestHost | undefined;

afterEach(async () => {
  await current?.dispose();
  await proxy?.close();
  await everything?.stop();
  current = proxy = everything = undefined;
});

async function hostBehindProxy(mode: 'streamableHttp' | 'sse'): Promise<TestHost> {
  everything = await startEverything(mode);
  proxy = await startCountingProxy(everything.port);
  const server = mode === 'sse' ? { url: `${proxy.origin}/sse`, transport: 'sse' } : { url: `${proxy.origin}/mcp` };
  current = await createTestHost({ everything: server });
  return current;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('server-everything over Streamable HTTP', () => {
  it('ends each session it opened with a DELETE: on stop, on restart and on quit', async () => {
    const { host } = await hostBehindProxy('streamableHttp');
    await host.servers.start('everything');
    await host.servers.restart('everything');
    await host.servers.stop('everything');
    await host.servers.start('everything');
    await current!.dispose();
    current = undefined;

    const opened = new Set(proxy!.requests.filter((r) => r.session).map((r) => r.session));
    const ended = proxy!.requests.filter((r) => r.httpMethod === 'DELETE').map((r) => r.session);
    expect(opened.size).toBe(3);
    expect(ended.sort()).toEqual([...opened].sort());
  });

  it('reads tools/list once per connect', async () => {
    const { host } = await hostBehindProxy('streamableHttp');
    await host.servers.start('everything');
    await settle(500);
    expect(proxy!.count('tools/list')).toBe(1);
  });
});

describe('server-everything over HTTP+SSE', () => {
  it('reads tools/list once per connect, with the tools it announces right after initialize', async () => {
    const { host } = await hostBehindProxy('sse');
    await host.servers.start('everything');
    await settle(500);
    expect(proxy!.count('tools/list')).toBe(1);
    // Registered once the server knows Harbor's capabilities, announced by three list_changed.
    const tools = (await host.calls.catalog('everything')).tools.map((t) => t.name);
    expect(tools).toContain('trigger-elicitation-request');
  });

  it('delivers the last progress notification that arrives right before the result', async () => {
    const { call } = await hostBehindProxy('sse');
    for (let run = 0; run < 6; run += 1) {
      const seen: number[] = [];
      await call('everything', 'trigger-long-running-operation', { duration: 0.15, steps: 3 }, { onProgress: (p) => seen.push(p.progress) });
      expect(seen, `run ${run}`).toEqual([1, 2, 3]);
    }
  });

  it('sends an empty arguments object with prompts/get when none were given', async () => {
    const { host } = await hostBehindProxy('sse');
    await host.calls.getPrompt('everything', 'simple-prompt', undefined);
    const get = proxy!.requests.find((r) => r.rpcMethods.includes('prompts/get'));
    expect(JSON.parse(get!.body)).toMatchObject({ params: { name: 'simple-prompt', arguments: {} } });
  });
});

describe('server-everything over stdio', () => {
  it('reads tools/list once per connect', async () => {
    current = await createTestHost({ everything: { command: NODE, args: [EVERYTHING_SERVER, 'stdio'] } });
    await current.host.servers.start('everything');
    await settle(500);
    expect(current.host.traffic.list({ server: 'everything' }).filter((e) => e.method === 'tools/list' && e.direction === 'out')).toHaveLength(1);
  });
});
