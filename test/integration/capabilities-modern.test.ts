/**
 * The same capabilities against a 2026-07-28 server (test/fixtures/servers/modern/capabilities-server.mjs),
 * over stdio and Streamable HTTP: sampling and roots arrive as input requests of a tools/call and
 * are answered in the retry; the log level travels in each request's _meta
 * (`io.modelcontextprotocol/logLevel`) and the server logs only at or above it; resource updates
 * come on a subscriptions/listen stream naming the subscribed URIs. Model hints pick among the
 * server's configured sampling models.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../preload/contract';
import { createChatHost } from '../fixtures/model/chat-host';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { FIXTURES, NODE, waitFor, type TestHost } from '../helpers/host';
import { startListeningServer, type RunningHttpServer } from '../helpers/http-server';

const SERVER = join(FIXTURES, 'modern/capabilities-server.mjs');
const ROOT = mkdtempSync(join(tmpdir(), 'harbor-modern-root-'));
const COUNTER = 'fixture://counter';
const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

let http: RunningHttpServer;
let model: ScriptedModel;

beforeAll(async () => {
  http = await startListeningServer([SERVER, '--http', '0']);
  model = await startScriptedModel({ script: [] });
});

afterAll(async () => {
  await http.kill();
  await model.close();
  rmSync(ROOT, { recursive: true, force: true });
});

const TRANSPORTS = {
  stdio: (extra: Record<string, unknown>) => ({ command: NODE, args: [SERVER], ...extra }),
  http: (extra: Record<string, unknown>) => ({ url: http.url, ...extra }),
} as const;

function textOf(result: { content?: unknown }): string {
  return ((result.content as { type: string; text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('\n');
}

/** The params of the last tools/call Harbor sent to `tool`. */
function lastCall(test: TestHost, tool: string): { _meta?: Record<string, unknown> } {
  const calls = test.host.traffic.list({ server: 'caps' }).filter((e) => e.direction === 'out' && e.method === 'tools/call' && e.text.includes(`"name":"${tool}"`));
  return (JSON.parse(calls.at(-1)!.text) as { params: { _meta?: Record<string, unknown> } }).params;
}

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])('a modern server over %s', (transport) => {
  async function host(extra: Record<string, unknown>): Promise<TestHost> {
    const test = await createChatHost({ caps: TRANSPORTS[transport](extra) }, { model: model.modelConfig() });
    await test.host.servers.connect('caps');
    expect(test.host.servers.get('caps').era).toBe('modern');
    return test;
  }

  it('sampling: an input request answered by the model its hint picks among the server\'s models, within maxTokens', async () => {
    model.push({ text: 'Short.' });
    const test = await host({ sampling: 'allow', samplingModel: [model.modelConfig({ model: 'fast-small' }), model.modelConfig({ model: 'smart-large' })] });
    try {
      const before = model.requests.length;
      const result = await test.call('caps', 'summarize', { text: 'a long story' });
      expect(textOf(result)).toBe('summary: Short. (model openai-compatible:smart-large)');
      const asked = model.requests[before]!;
      expect(asked.body.model).toBe('smart-large');
      expect(asked.system).toBe('You summarize.');
      expect(asked.body.max_tokens ?? asked.body.max_completion_tokens).toBe(50);
      // The retry carried the answer under the input request's key.
      expect(JSON.stringify(lastCall(test, 'summarize'))).toContain('"inputResponses":{"summary":{"role":"assistant"');
    } finally {
      await test.dispose();
    }
  });

  it('sampling over the server\'s rate limit is refused, and a missing model is named, without calling any model', async () => {
    model.push({ text: 'once' });
    const test = await host({ sampling: 'allow', samplingPerMinute: 1 });
    try {
      const exchanges: EventPayload<'sampling.exchange'>[] = [];
      disposeAfterTest(test.host.events.onEvent('sampling.exchange', (e) => exchanges.push(e)));
      expect(textOf(await test.call('caps', 'summarize', { text: 'one' }))).toContain('summary: once');
      const before = model.requests.length;
      await expect(test.call('caps', 'summarize', { text: 'two' })).rejects.toThrow(/"caps" asked the model more than 1 times in a minute; try again in \d+ s/);
      expect(model.requests.length).toBe(before);
      expect(exchanges.map((e) => e.outcome)).toEqual(['sent', 'rateLimited']);
    } finally {
      await test.dispose();
    }
    const modelless = await createChatHost({ caps: TRANSPORTS[transport]({ sampling: 'allow' }) });
    try {
      await expect(modelless.call('caps', 'summarize', { text: 'x' })).rejects.toThrow(/No model is configured for sampling: set "model"/);
    } finally {
      await modelless.dispose();
    }
  });

  it('sampling "deny": not declared in the request\'s capabilities, so the server cannot ask and the call fails', async () => {
    const test = await host({ sampling: 'deny' });
    try {
      await expect(test.call('caps', 'summarize', { text: 'x' })).rejects.toThrow(/Cannot request input 'summary' \(sampling\/createMessage\).*-32021/);
      const caps = lastCall(test, 'summarize')._meta?.['io.modelcontextprotocol/clientCapabilities'] as Record<string, unknown>;
      expect(caps).not.toHaveProperty('sampling');
      expect(caps).toHaveProperty('elicitation');
    } finally {
      await test.dispose();
    }
  });

  it('roots: an input request answered with the configured folders as file:// URIs; none configured, none declared', async () => {
    const test = await host({ roots: [ROOT] });
    try {
      const result = await test.call('caps', 'list_roots');
      const uri = pathToFileURL(ROOT).href;
      expect(textOf(result)).toBe(`roots: ${JSON.stringify([{ uri, name: ROOT.split('/').at(-1) }])}`);
      expect(lastCall(test, 'list_roots')._meta?.['io.modelcontextprotocol/clientCapabilities']).toMatchObject({ roots: { listChanged: true } });
    } finally {
      await test.dispose();
    }
    const bare = await host({});
    try {
      await expect(bare.call('caps', 'list_roots')).rejects.toThrow(/Cannot request input 'roots' \(roots\/list\).*-32021/);
    } finally {
      await bare.dispose();
    }
  });

  it('logging: the level travels in each request\'s _meta and only messages at or above it arrive', async () => {
    const test = await host({ logLevel: 'warning' });
    try {
      const logs: EventPayload<'servers.log'>[] = [];
      disposeAfterTest(test.host.events.onEvent('servers.log', (entry) => logs.push(entry)));
      await test.call('caps', 'chatty');
      expect(lastCall(test, 'chatty')._meta?.[LOG_LEVEL_KEY]).toBe('warning');
      await waitFor(() => logs.length >= 5, 'five log messages');
      expect(logs.map((l) => l.level)).toEqual(['warning', 'error', 'critical', 'alert', 'emergency']);
      expect(logs[0]).toMatchObject({ server: 'caps', logger: 'chatty', data: 'warning from chatty' });

      // No level chosen: the request does not opt in, and a modern server sends nothing.
      await test.host.logs.setLevel('caps', null);
      const count = logs.length;
      await test.call('caps', 'chatty');
      expect(lastCall(test, 'chatty')._meta).not.toHaveProperty(LOG_LEVEL_KEY);
      expect(logs.length).toBe(count);
      expect(test.host.logs.view('caps')).toMatchObject({ supported: true, era: 'modern' });
    } finally {
      await test.dispose();
    }
  });

  it('subscriptions: one listen stream names the subscribed URIs; an update is reported; unsubscribing closes it', async () => {
    const test = await host({});
    try {
      const updates: string[] = [];
      disposeAfterTest(
        test.host.events.onEvent('servers.changed', (e) => {
          if (e.reason === 'resourceUpdated' && e.uri) updates.push(e.uri);
        }),
      );
      expect(await test.host.subscriptions.subscribe('caps', COUNTER)).toEqual({ server: 'caps', supported: true, uris: [COUNTER] });
      const listens = () => test.host.traffic.list({ server: 'caps' }).filter((e) => e.direction === 'out' && e.method === 'subscriptions/listen' && e.text.includes('resourceSubscriptions'));
      expect(listens().at(-1)!.text).toContain(`"resourceSubscriptions":["${COUNTER}"]`);
      await test.call('caps', 'bump');
      await waitFor(() => updates.includes(COUNTER), 'resources/updated for the counter');
      const read = await test.host.calls.readResource('caps', COUNTER);
      expect((read.contents[0] as { text?: string }).text).toMatch(/^count \d+$/);
      expect(await test.host.subscriptions.unsubscribe('caps', COUNTER)).toEqual({ server: 'caps', supported: true, uris: [] });
      const after = updates.length;
      await test.call('caps', 'bump');
      await new Promise((r) => setTimeout(r, 300));
      expect(updates.length).toBe(after);
    } finally {
      await test.dispose();
    }
  });
});
