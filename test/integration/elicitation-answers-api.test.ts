/**
 * Browser mode's WebSocket API answers a server's form: an answer that does not fit the schema
 * the server asked with is refused with BAD_REQUEST naming each field, and the question keeps
 * waiting (listed by elicitation.pending); fields the form does not ask for never reach the
 * server. Real `harbor web` server, the renderer's own WebSocket bridge, server-everything
 * 2026.8.31 (stdio) asking with its trigger-elicitation-request tool.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApi } from '../../preload/contract';
import { bindCommands } from '../../main/contract-handlers';
import { createDispatcher } from '../../main/dispatch';
import { WebServer } from '../../main/web/server';
import { WebSocketTransport } from '../../renderer/src/bridge/ws-transport';
import { createTestHost, EVERYTHING_SERVER, NODE, waitFor, type TestHost } from '../helpers/host';

let test: TestHost | undefined;
let server: WebServer | undefined;

afterEach(async () => {
  await server?.dispose();
  await test?.dispose();
  test = server = undefined;
});

describe('elicitation.respond over the WebSocket API', () => {
  it('refuses an answer that does not fit (BAD_REQUEST naming each field); the question stays; a good one goes through without unknown fields', async () => {
    test = await createTestHost({ everything: { command: NODE, args: [EVERYTHING_SERVER, 'stdio'] } }, { mode: 'web' });
    mkdirSync(join(test.dir, 'renderer'));
    writeFileSync(join(test.dir, 'renderer', 'index.html'), '<!doctype html>');
    server = await WebServer.start({ rendererDir: join(test.dir, 'renderer'), port: 0, dispatch: createDispatcher(bindCommands(test.host)), events: test.host.events });
    const origin = `http://127.0.0.1:${server.port}`;
    const NodeWebSocket = WebSocket as unknown as new (url: string, init: { headers: Record<string, string> }) => WebSocket;
    const api = buildApi(new WebSocketTransport(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, (url) => new NodeWebSocket(url, { headers: { origin } })));

    const asked: string[] = [];
    api.on.consent.request((request) => void api.consent.respond({ id: request.id, decision: 'once' }));
    api.on.elicitation.request((request) => asked.push(request.id));
    const call = api.tools.call({ server: 'everything', tool: 'trigger-elicitation-request', arguments: {} });
    await waitFor(() => asked.length === 1, 'the server to ask', 20_000);
    const id = asked[0]!;

    const refused = await api.elicitation.respond({ id, action: 'accept', content: { name: 123, integer: 'abc', bogus: true } });
    expect(refused).toEqual({
      ok: false,
      error: {
        code: 'BAD_REQUEST',
        message: 'The answer does not fit what the server asked for: "name" must be a string (got 123); "integer" must be an integer (got "abc").',
        fields: [
          { path: 'name', message: 'must be a string (got 123)' },
          { path: 'integer', message: 'must be an integer (got "abc")' },
        ],
      },
    });
    const pending = await api.elicitation.pending({});
    expect(pending.ok && pending.value.map((q) => q.id)).toEqual([id]);

    expect(await api.elicitation.respond({ id, action: 'accept', content: { name: 'Ada', integer: 7, bogus: true } })).toEqual({ ok: true, value: { accepted: true } });
    const result = await call;
    expect(result.ok).toBe(true);
    const text = result.ok ? JSON.stringify(result.value.content) : '';
    expect(text).toContain('- Name: Ada');
    expect(text).toContain('- Favorite Integer: 7');
    expect(text).not.toContain('bogus');
    const after = await api.elicitation.pending({});
    expect(after.ok && after.value).toEqual([]);
  });
});
