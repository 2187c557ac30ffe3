/**
 * What server-everything 2026.8.31 asks of its host, through a real Host, over stdio and over
 * Streamable HTTP: roots (`get-roots-list`, and roots/list_changed when the registry changes),
 * sampling (`trigger-sampling-request` answered by the scripted model, with the person's review
 * in the app and a refusal in the CLI), logging (`toggle-simulated-logging`, logging/setLevel)
 * and resource subscriptions (`toggle-subscriber-updates`). Each capability is declared only
 * where it is offered.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventPayload, SamplingRequestData } from '../../preload/contract';
import { createChatHost, everythingServer } from '../fixtures/model/chat-host';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { startEverythingHttp } from '../helpers/everything-http';
import { waitFor, type TestHost } from '../helpers/host';
import type { RunningHttpServer } from '../helpers/http-server';
import { SIMULATED_LOG } from '../helpers/everything-logs';

const folders = mkdtempSync(join(tmpdir(), 'harbor-roots-'));
const ROOT_A = join(folders, 'alpha');
const ROOT_B = join(folders, 'beta');
mkdirSync(ROOT_A);
mkdirSync(ROOT_B);
const DOCUMENT = 'demo://resource/static/document/architecture.md';

let http: RunningHttpServer;
let model: ScriptedModel;

beforeAll(async () => {
  http = await startEverythingHttp();
  model = await startScriptedModel({ script: [], repeatLast: false });
});

afterAll(async () => {
  await http.kill();
  await model.close();
  rmSync(folders, { recursive: true, force: true });
});

const TRANSPORTS = {
  stdio: (extra: Record<string, unknown>) => everythingServer(extra),
  http: (extra: Record<string, unknown>) => ({ url: http.url, ...extra }),
} as const;

/** The text of a tool result's content. */
function textOf(result: { content?: unknown }): string {
  return ((result.content as { type: string; text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('\n');
}

/** The capabilities Harbor declared in its initialize request to `server`. */
function declared(test: TestHost, server: string): Record<string, unknown> {
  const init = test.host.traffic.list({ server }).find((e) => e.method === 'initialize' && e.direction === 'out');
  return (JSON.parse(init!.text) as { params: { capabilities: Record<string, unknown> } }).params.capabilities;
}

async function host(transport: keyof typeof TRANSPORTS, extra: Record<string, unknown>, mode: 'cli' | 'web' = 'cli'): Promise<TestHost> {
  return createChatHost({ everything: TRANSPORTS[transport](extra) }, { model: model.modelConfig(), host: { mode } });
}

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])('server-everything over %s', (transport) => {
  describe('roots', () => {
    it('declares roots only with roots configured, answers get-roots-list with file:// URIs, and tells the server when they change', async () => {
      const test = await host(transport, { roots: [ROOT_A] });
      try {
      const first = await test.call('everything', 'get-roots-list');
      expect(textOf(first)).toContain('Current MCP Roots (1 total)');
      expect(textOf(first)).toContain(`URI: ${pathToFileURL(ROOT_A).href}`);
      expect(declared(test, 'everything')).toMatchObject({ roots: { listChanged: true } });

      const config = test.host.registry.view();
      const entry = (await config).servers.find((s) => s.name === 'everything')!.config;
      await test.host.registry.update('everything', { ...entry, roots: [ROOT_A, `file://${ROOT_B}`] });
      await waitFor(() => test.host.traffic.list({ server: 'everything' }).some((e) => e.method === 'notifications/roots/list_changed'), 'roots/list_changed');
      await waitFor(
        () => test.host.traffic.list({ server: 'everything' }).filter((e) => e.method === 'roots/list' && e.direction === 'in').length >= 2,
        'the server to list the roots again',
      );
      // The server stores the new list when our answer arrives, a moment after asking for it.
      let second = await test.call('everything', 'get-roots-list');
      for (const started = Date.now(); !textOf(second).includes('(2 total)') && Date.now() - started < 10_000; ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        second = await test.call('everything', 'get-roots-list');
      }
      expect(textOf(second)).toContain('Current MCP Roots (2 total)');
      expect(textOf(second)).toContain(`URI: ${pathToFileURL(ROOT_B).href}`);
      // The same connection: changing the roots' contents is not a restart.
      expect(test.host.traffic.list({ server: 'everything' }).filter((e) => e.method === 'initialize').length).toBe(1);
      } finally {
        await test.dispose();
      }
    });

    it('a server without roots is not offered them (its get-roots-list does not exist)', async () => {
      const bare = await host(transport, {});
      try {
        await bare.host.servers.connect('everything');
        await waitFor(() => bare.host.traffic.list({ server: 'everything' }).some((e) => e.method === 'tools/list'), 'tools/list');
        expect(declared(bare, 'everything')).not.toHaveProperty('roots');
        const tools = (await bare.host.calls.catalog('everything')).tools.map((t) => t.name);
        expect(tools).not.toContain('get-roots-list');
        expect(tools).toContain('trigger-sampling-request');
      } finally {
        await bare.dispose();
      }
    });
  });

  describe('sampling', () => {
    it('"allow": the registry model answers within the server\'s maxTokens, and the exchange is in Activity', async () => {
      model.push({ text: 'Blue, mostly.' });
      const test = await host(transport, { sampling: 'allow' });
      try {
        const exchanges: EventPayload<'sampling.exchange'>[] = [];
        disposeAfterTest(test.host.events.onEvent('sampling.exchange', (e) => exchanges.push(e)));
        const before = model.requests.length;
        const result = await test.call('everything', 'trigger-sampling-request', { prompt: 'What colour is the sea?', maxTokens: 42 });
        expect(textOf(result)).toContain('Blue, mostly.');
        expect(textOf(result)).toContain('"model": "openai-compatible:scripted"');
        const asked = model.requests[before]!;
        expect(asked.system).toBe('You are a helpful test server.');
        expect(JSON.stringify(asked.messages)).toContain('What colour is the sea?');
        expect(asked.body.max_tokens ?? asked.body.max_completion_tokens).toBe(42);
        expect(exchanges).toEqual([expect.objectContaining({ server: 'everything', outcome: 'sent', model: 'openai-compatible:scripted', maxTokens: 42, answerChars: 13 })]);
        expect(declared(test, 'everything')).toMatchObject({ sampling: {} });
      } finally {
        await test.dispose();
      }
    });

    it('"deny": sampling is not declared, so the server does not offer trigger-sampling-request', async () => {
      const test = await host(transport, { sampling: 'deny' });
      try {
        await test.host.servers.connect('everything');
        await waitFor(() => test.host.traffic.list({ server: 'everything' }).some((e) => e.method === 'tools/list'), 'tools/list');
        expect(declared(test, 'everything')).not.toHaveProperty('sampling');
        expect((await test.host.calls.catalog('everything')).tools.map((t) => t.name)).not.toContain('trigger-sampling-request');
      } finally {
        await test.dispose();
      }
    });

    it('"ask" in the CLI: declined (nobody can review it), and the model is never called', async () => {
      const test = await host(transport, {});
      try {
        const before = model.requests.length;
        const result = await test.call('everything', 'trigger-sampling-request', { prompt: 'hello' });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain('declined the sampling request');
        expect(model.requests.length).toBe(before);
      } finally {
        await test.dispose();
      }
    });

    it('"ask" in the app: the person edits the request, sees the answer, edits it, and only then it goes back', async () => {
      model.push({ text: 'The model said this.' });
      const test = await host(transport, {}, 'web');
      try {
        const asked: SamplingRequestData[] = [];
        disposeAfterTest(test.host.events.onEvent('sampling.request', (request) => {
          asked.push(request);
          if (request.stage === 'request') {
            test.host.sampling.respond({ id: request.id, action: 'approve', systemPrompt: 'Be brief.', messages: ['An edited question'], maxTokens: 20 });
          } else {
            test.host.sampling.respond({ id: request.id, action: 'approve', text: 'An edited answer' });
          }
        }));
        const before = model.requests.length;
        const result = await test.call('everything', 'trigger-sampling-request', { prompt: 'original question', maxTokens: 30 });
        expect(asked.map((r) => r.stage)).toEqual(['request', 'response']);
        expect(asked[0]).toMatchObject({
          server: 'everything',
          systemPrompt: 'You are a helpful test server.',
          maxTokens: 30,
          temperature: 0.7,
          model: 'openai-compatible:scripted',
          during: 'calling tool trigger-sampling-request',
          messages: [{ role: 'user', text: 'Resource trigger-sampling-request context: original question', attachments: [] }],
        });
        expect(asked[1]!.response).toEqual({ text: 'The model said this.', model: 'openai-compatible:scripted', stopReason: 'endTurn' });
        const sent = model.requests[before]!;
        expect(sent.system).toBe('Be brief.');
        expect(JSON.stringify(sent.messages)).toContain('An edited question');
        expect(JSON.stringify(sent.messages)).not.toContain('original question');
        expect(sent.body.max_tokens ?? sent.body.max_completion_tokens).toBe(20);
        expect(textOf(result)).toContain('An edited answer');
        expect(textOf(result)).not.toContain('The model said this.');
      } finally {
        await test.dispose();
      }
    });

    it('"ask" in the app, denied: the server gets an error and the model is never called', async () => {
      const test = await host(transport, {}, 'web');
      try {
        disposeAfterTest(test.host.events.onEvent('sampling.request', (request) => test.host.sampling.respond({ id: request.id, action: 'deny' })));
        const before = model.requests.length;
        const result = await test.call('everything', 'trigger-sampling-request', { prompt: 'no' });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain('The person denied the sampling request.');
        expect(model.requests.length).toBe(before);
      } finally {
        await test.dispose();
      }
    });
  });

  describe('logging and subscriptions', () => {
    it('toggle-simulated-logging: log messages arrive per server; the level the person sets is sent as logging/setLevel', async () => {
      const test = await host(transport, {});
      try {
        const logs: EventPayload<'servers.log'>[] = [];
        disposeAfterTest(test.host.events.onEvent('servers.log', (entry) => logs.push(entry)));
        await test.call('everything', 'toggle-simulated-logging');
        await waitFor(() => logs.some((l) => l.server === 'everything' && SIMULATED_LOG.test(String(l.data))), 'a simulated log message');
        expect(test.host.logs.view('everything').entries.some((e) => SIMULATED_LOG.test(String(e.data)))).toBe(true);
        const view = await test.host.logs.setLevel('everything', 'error');
        expect(view).toMatchObject({ level: 'error', supported: true, era: 'legacy' });
        await waitFor(
          () => test.host.traffic.list({ server: 'everything' }).some((e) => e.method === 'logging/setLevel' && e.text.includes('"error"')),
          'logging/setLevel error',
        );
        await test.call('everything', 'toggle-simulated-logging');
      } finally {
        await test.dispose();
      }
    });

    it('toggle-subscriber-updates: a subscribed resource is reported updated; unsubscribing tells the server', async () => {
      const test = await host(transport, {});
      try {
        const updates: string[] = [];
        disposeAfterTest(test.host.events.onEvent('servers.changed', (e) => {
          if (e.reason === 'resourceUpdated' && e.uri) updates.push(e.uri);
        }));
        await test.host.servers.connect('everything');
        expect(await test.host.subscriptions.subscribe('everything', DOCUMENT)).toEqual({ server: 'everything', supported: true, uris: [DOCUMENT] });
        expect(test.host.traffic.list({ server: 'everything' }).some((e) => e.method === 'resources/subscribe' && e.text.includes(DOCUMENT))).toBe(true);
        await test.call('everything', 'toggle-subscriber-updates');
        await waitFor(() => updates.includes(DOCUMENT), 'resources/updated for the subscribed document');
        expect(await test.host.subscriptions.unsubscribe('everything', DOCUMENT)).toEqual({ server: 'everything', supported: true, uris: [] });
        expect(test.host.traffic.list({ server: 'everything' }).some((e) => e.method === 'resources/unsubscribe' && e.text.includes(DOCUMENT))).toBe(true);
        await test.call('everything', 'toggle-subscriber-updates');
      } finally {
        await test.dispose();
      }
    });
  });
});
