/**
 * SupervisedStdioTransport under the real SDK Client, against real (adversarial) servers, plus
 * the byte-level line splitter it parses stdout with.
 */
import { Client, SdkError } from '@modelcontextprotocol/client';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServerEnv } from '../../main/host/servers/stdio/environment';
import { ByteLineSplitter } from '../../main/host/servers/stdio/line-splitter';
import { SupervisedStdioTransport, type StdioLaunch, type SupervisedStdioOptions } from '../../main/host/servers/stdio/transport';
import { killMarkedProcesses, uniqueMarker, waitForNoMarkedProcesses } from '../fixtures/proc';

const FIXTURES = fileURLToPath(new URL('../fixtures/servers/adversarial/', import.meta.url));
const NODE = process.execPath;
const fixture = (name: string): string => join(FIXTURES, name);
const SPLIT_TEXT = 'héllo 👋 世界';

function newClient(): Client {
  return new Client({ name: 't', version: '0' }, { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 3000 } } });
}

describe('ByteLineSplitter', () => {
  function collect(max = 1024) {
    const lines: string[] = [];
    const oversize: number[] = [];
    const splitter = new ByteLineSplitter(max, { line: (l) => lines.push(l), oversize: (n) => oversize.push(n) });
    return { splitter, lines, oversize };
  }

  it('never corrupts a multibyte character split across chunks, even byte by byte', () => {
    const { splitter, lines } = collect();
    const bytes = Buffer.from(`{"text":"${SPLIT_TEXT}"}\n{"x":"é"}\n`);
    for (let i = 0; i < bytes.length; i++) splitter.push(bytes.subarray(i, i + 1));
    expect(lines).toEqual([`{"text":"${SPLIT_TEXT}"}`, '{"x":"é"}']);
  });

  it('handles several lines per chunk, CRLF, and a last line without newline at end()', () => {
    const { splitter, lines } = collect();
    splitter.push(Buffer.from('a\r\nb\nc'));
    expect(lines).toEqual(['a', 'b']);
    splitter.end();
    expect(lines).toEqual(['a', 'b', 'c']);
  });

  it('drops an over-long line, in one chunk or many, and carries on with the next', () => {
    const { splitter, lines, oversize } = collect(10);
    splitter.push(Buffer.from('0123456789ABC\nok\n'));
    splitter.push(Buffer.from('0123456'));
    splitter.push(Buffer.from('789'));
    splitter.push(Buffer.from('ABCDEF'));
    splitter.push(Buffer.from('GH\nfine\n'));
    expect(lines).toEqual(['ok', 'fine']);
    expect(oversize).toEqual([13, 18]);
  });
});

describe.skipIf(process.platform !== 'linux')('SupervisedStdioTransport', () => {
  const markers: string[] = [];
  const transports: SupervisedStdioTransport[] = [];

  afterEach(async () => {
    await Promise.all(transports.splice(0).map((t) => t.close()));
    for (const marker of markers.splice(0)) killMarkedProcesses(marker);
  });

  function transport(label: string, launch: Omit<StdioLaunch, 'marker'>, options: SupervisedStdioOptions = {}) {
    const marker = uniqueMarker(label);
    markers.push(marker);
    const t = new SupervisedStdioTransport({ ...launch, marker }, options);
    transports.push(t);
    return { transport: t, marker };
  }

  it('a real MCP round trip with a noisy server: modern era, echo, split UTF-8 intact, noise reported but not fatal', async () => {
    const noise: string[] = [];
    const { transport: t, marker } = transport('noisy', { command: NODE, args: [fixture('noisy.mjs')] }, { onStdoutNoise: (line) => noise.push(line) });
    const client = newClient();
    let closes = 0;
    client.onclose = () => closes++;
    await client.connect(t);
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getServerVersion()?.name).toBe('noisy');

    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['echo', 'utf8']);
    expect(tools.tools.find((tool) => tool.name === 'utf8')?.description).toBe(`Returns "${SPLIT_TEXT}"`);

    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hello harbor' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'hello harbor' }]);

    const utf8 = await client.callTool({ name: 'utf8', arguments: {} });
    expect(utf8.content).toEqual([{ type: 'text', text: SPLIT_TEXT }]);

    expect(noise).toEqual(
      expect.arrayContaining([
        'noisy: starting up, this line is not JSON',
        '{"log":"json, but not JSON-RPC"}',
        '[1, 2, 3]',
        'noisy: echoing 12 characters',
        'noisy: about to send multibyte text in pieces',
      ]),
    );
    expect(t.noiseLines).toBe(noise.length);
    expect(t.stderrTail()).toContain('[stdout noise] noisy: starting up, this line is not JSON');
    expect(t.stderrTail()).not.toContain('\uFFFD');

    await client.close();
    expect(closes).toBe(1);
    expect(t.exitInfo).toEqual({ code: 0, signal: null });
    expect(await waitForNoMarkedProcesses(marker)).toEqual([]);
  });

  it('a crash during a call rejects the pending call at once, with the stderr tail and exit code at hand', async () => {
    const stderrLines: string[] = [];
    const { transport: t, marker } = transport(
      'crash-on-call',
      { command: NODE, args: [fixture('crash-on-call.mjs'), '--crash-on=2'] },
      { onStderrLine: (line) => stderrLines.push(line) },
    );
    const client = newClient();
    let closes = 0;
    client.onclose = () => closes++;
    await client.connect(t);
    const first = await client.callTool({ name: 'work', arguments: {} });
    expect(first.content).toEqual([{ type: 'text', text: 'worked 1' }]);

    const started = Date.now();
    const failure = await client.callTool({ name: 'work', arguments: {} }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(Date.now() - started).toBeLessThan(10_000); // not the SDK's 60 s request timeout
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).code).toBe('CONNECTION_CLOSED');
    expect(t.exitInfo).toEqual({ code: 1, signal: null });
    expect(t.stderrTail()).toContain('about to crash (call 2)');
    expect(stderrLines).toContain('about to crash (call 2)');
    expect(closes).toBe(1);
    expect(await waitForNoMarkedProcesses(marker)).toEqual([]);
  });

  it('fixture options also come from the configured env (CRASH_ON=1)', async () => {
    const env = buildServerEnv({ base: process.env, serverEnv: { CRASH_ON: '1' }, platform: process.platform });
    const { transport: t } = transport('crash-env', { command: NODE, args: [fixture('crash-on-call.mjs')], env });
    const client = newClient();
    await client.connect(t);
    await expect(client.callTool({ name: 'work', arguments: {} })).rejects.toBeInstanceOf(SdkError);
    expect(t.stderrTail()).toContain('about to crash (call 1)');
  });

  it('a server that dies at startup: connect fails promptly and the stderr tail says why', async () => {
    const { transport: t, marker } = transport('crash-at-startup', { command: NODE, args: [fixture('crash-at-startup.mjs')] });
    const client = newClient();
    const started = Date.now();
    await expect(client.connect(t)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(t.exitInfo).toEqual({ code: 1, signal: null });
    expect(t.stderrTail()).toBe('fatal: missing config FOO');
    expect(await waitForNoMarkedProcesses(marker)).toEqual([]);
  });

  it('a command that cannot be spawned: connect rejects with the SPAWN_FAILED HarborError itself', async () => {
    const { transport: t } = transport('spawn-failed', { command: 'harbor-no-such-server', env: { PATH: '/nonexistent' } });
    const client = newClient();
    await expect(client.connect(t)).rejects.toMatchObject({
      name: 'HarborError',
      code: 'SPAWN_FAILED',
      message: expect.stringContaining('Harbor could not find "harbor-no-such-server" on PATH (/nonexistent)'),
    });
  });

  it('close() of a stubborn server runs the whole ladder with the configured graces and leaves no process', async () => {
    const { transport: t, marker } = transport(
      'stubborn-close',
      { command: NODE, args: [fixture('stubborn.mjs')] },
      { stopGraces: { stdinGraceMs: 300, termGraceMs: 300 } },
    );
    const client = newClient();
    let closes = 0;
    client.onclose = () => closes++;
    await client.connect(t);
    expect(client.getProtocolEra()).toBe('modern');
    expect((await client.callTool({ name: 'ping', arguments: {} })).content).toEqual([{ type: 'text', text: 'pong' }]);
    const started = Date.now();
    await client.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(closes).toBe(1);
    expect(t.exitInfo?.signal).toBe('SIGKILL');
    expect(t.stderrTail()).toContain('stubborn: ignoring SIGTERM');
    expect(await waitForNoMarkedProcesses(marker, 2000)).toEqual([]);
  });

  it('raw transport: over-long lines are dropped with a note, a last line without newline and CRLF lines are delivered', async () => {
    const notification = (data: string) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data } });
    const script = [
      `process.stdout.write('x'.repeat(5000) + '\\n');`,
      `process.stdout.write(${JSON.stringify(notification('crlf'))} + '\\r\\n');`,
      `process.stdout.write(${JSON.stringify(notification('no newline'))});`,
    ].join('');
    const { transport: t } = transport('raw', { command: NODE, args: ['-e', script] }, { maxMessageBytes: 1000 });
    const messages: unknown[] = [];
    const errors: Error[] = [];
    let closes = 0;
    t.onmessage = (message) => messages.push(message);
    t.onerror = (error) => errors.push(error);
    const closed = new Promise<void>((resolve) => {
      t.onclose = () => {
        closes++;
        resolve();
      };
    });
    await t.start();
    await closed;
    expect(messages).toEqual([JSON.parse(notification('crlf')), JSON.parse(notification('no newline'))]);
    expect(errors.map((e) => e.message)).toEqual(['[stdout] dropped a 5000-byte message: over the 1000-byte limit']);
    expect(t.stderrTail()).toContain('dropped a 5000-byte message');
    await t.close();
    expect(closes).toBe(1);
    await expect(t.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).rejects.toBeInstanceOf(SdkError);
    await expect(t.start()).rejects.toThrow(/already started/);
  });

  it('send() waits for the pipe to drain instead of buffering without bound', async () => {
    // A reader that stops reading for a while: writes must back up and then all arrive.
    const script = `let n=0;process.stdin.pause();setTimeout(()=>{process.stdin.on('data',c=>{for(const b of c)if(b===10)n++;if(n===200)process.stdout.write(JSON.stringify({jsonrpc:'2.0',method:'notifications/message',params:{level:'info',data:String(n)}})+'\\n')});process.stdin.resume()},300);setInterval(()=>{},1000)`;
    const { transport: t } = transport('drain', { command: NODE, args: ['-e', script] }, { stopGraces: { stdinGraceMs: 100, termGraceMs: 100 } });
    const got = new Promise<unknown>((resolve) => (t.onmessage = resolve));
    await t.start();
    const big = 'y'.repeat(64 * 1024);
    const sends = Array.from({ length: 200 }, (_, i) => t.send({ jsonrpc: '2.0', method: 'notifications/message', params: { i, big } }));
    // The first sends fill the pipe while the reader is paused; the rest must wait for 'drain'.
    let settled = 0;
    for (const send of sends) void send.then(() => settled++);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(settled).toBeLessThan(200);
    await Promise.all(sends);
    expect(await got).toMatchObject({ params: { data: '200' } });
  });

  it('close() before start() just reports the close', async () => {
    const t = new SupervisedStdioTransport({ command: NODE, args: ['-e', ''] });
    let closes = 0;
    t.onclose = () => closes++;
    await t.close();
    await t.close();
    expect(closes).toBe(1);
    await expect(t.start()).rejects.toBeInstanceOf(SdkError);
  });
});
