/**
 * MCP Apps on the Host's side, against real servers: the probe fixture (every way a tool can link
 * its app, metadata in the listing, the content or both, broken resources), in both eras, and the
 * published example servers from npm. Checks what Harbor declares, what it reads, the policy it
 * builds, and that an app acts only for its own server under the consent gate, every request on
 * the audit trail.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppActivityEntry } from '../../preload/contract';
import { ToolIndex } from '../../main/host/tools/tool-index';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { createTestHost, FIXTURES, NODE, REPO, type TestHost } from '../helpers/host';
import { createChatHost, featureServer } from '../fixtures/model/chat-host';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';

const PROBE = join(FIXTURES, 'apps/probe-app-server.mjs');
const npmServer = (name: string) => ({ command: NODE, args: [join(REPO, 'node_modules/@modelcontextprotocol', name, 'dist/index.js'), '--stdio'] });

let test: TestHost | undefined;
let model: ScriptedModel | undefined;
afterEach(async () => {
  await test?.dispose();
  await model?.close();
  test = undefined;
  model = undefined;
});

function activityOf(t: TestHost): AppActivityEntry[] {
  const seen: AppActivityEntry[] = [];
  disposeAfterTest(t.host.events.onEvent('apps.activity', (entry) => seen.push(entry)));
  return seen;
}

function attach(t: TestHost): void {
  disposeAfterTest(t.host.apps.attachSandbox({ urlFor: (id) => `test-sandbox://apps/${id}` }));
}

const textOf = (result: { content?: unknown }) => ((result.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');

describe('negotiation and discovery', () => {
  it('declares the UI extension with the MIME type Harbor renders in both eras, so servers offer their UI tools', async () => {
    test = await createTestHost({ modern: { command: NODE, args: [PROBE] }, legacy: { command: NODE, args: [PROBE, '--legacy'] } });
    for (const [server, era] of [['modern', 'modern'], ['legacy', 'legacy']] as const) {
      const declared = JSON.parse(textOf(await test.call(server, 'client_capabilities'))) as Record<string, unknown>;
      // Beside the other extensions Harbor declares (tasks), exactly this entry for apps.
      expect((declared.extensions as Record<string, unknown>)['io.modelcontextprotocol/ui'], server).toEqual({ mimeTypes: ['text/html;profile=mcp-app'] });
      expect(test.host.servers.get(server)).toMatchObject({ state: { kind: 'ready' }, era });
      // The probe lists its UI tools only to a client that declared the extension.
      const tools = (await test.host.calls.catalog(server)).tools.map((t) => t.name);
      expect(tools, server).toEqual(expect.arrayContaining(['show_probe', 'show_listed', 'app_only']));
    }
  });

  it('finds a tool’s app from either form of the link, without starting a server that is not running', async () => {
    test = await createTestHost({ probe: { command: NODE, args: [PROBE] } });
    expect(test.host.apps.forTool('probe', 'show_probe')).toEqual({ known: false });
    expect(test.host.servers.get('probe').state.kind).not.toBe('ready');
    await test.host.servers.connect('probe');
    expect(test.host.apps.forTool('probe', 'show_probe')).toEqual({ known: true, resourceUri: 'ui://probe/app.html' });
    expect(test.host.apps.forTool('probe', 'show_listed')).toEqual({ known: true, resourceUri: 'ui://probe/listed.html' });
    expect(test.host.apps.forTool('probe', 'model_only')).toEqual({ known: true });
  });

  it('never offers the model a tool whose visibility leaves it out; the app can still call it', async () => {
    test = await createTestHost({ probe: { command: NODE, args: [PROBE] }, monitor: npmServer('server-system-monitor') });
    const servers = await Promise.all(['probe', 'monitor'].map(async (server) => ({ server, tools: (await test!.host.calls.catalog(server)).tools })));
    const offered = ToolIndex.build(servers).tools.map((t) => t.exposedName);
    expect(offered).toEqual(expect.arrayContaining(['probe__show_probe', 'probe__model_only', 'monitor__get-system-info']));
    expect(offered).not.toContain('probe__app_only');
    expect(offered).not.toContain('monitor__poll-system-stats');
    const context = await test.host.chat.context();
    expect(context.servers.find((s) => s.name === 'monitor')?.tools).toBe(1);
  });
});

describe('opening an app', () => {
  it('refuses to open where no door can show it', async () => {
    test = await createTestHost({ probe: { command: NODE, args: [PROBE] } });
    await expect(test.host.apps.open({ server: 'probe', tool: 'show_probe' })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/no window/) });
  });

  it('reads the resource, prefers its content’s _meta.ui over the listing’s, builds the policy and records every grant and refusal', async () => {
    test = await createTestHost({ probe: { command: NODE, args: [PROBE] } });
    attach(test);
    const activity = activityOf(test);
    const view = await test.host.apps.open({ server: 'probe', tool: 'show_probe' });
    expect(view.sandboxUrl).toBe(`test-sandbox://apps/${view.instanceId}`);
    expect(view.html).toContain('<h1 id="title">Probe app</h1>');
    expect(view.tool).toMatchObject({ name: 'show_probe' });
    // The content's metadata won: the listing's connect domain and border preference are not used.
    expect(view.policy.csp).toEqual({ connectDomains: [], resourceDomains: ['https://cdn.example.com'], frameDomains: [], baseUriDomains: [] });
    expect(view.policy.prefersBorder).toBe(true);
    expect(view.policy.refused.map((r) => r.entry)).toEqual(["'unsafe-hashes'", '*']);
    expect(view.policy.permissions).toEqual({ granted: ['clipboardWrite'], refused: ['camera'] });
    expect(view.policy.allow).toBe('clipboard-write');

    const sandbox = test.host.apps.sandboxPolicy(view.instanceId)!;
    expect(sandbox.csp).toContain("default-src 'none'");
    expect(sandbox.csp).toContain("connect-src 'none'");
    expect(sandbox.csp).toContain('img-src data: blob: https://cdn.example.com');
    expect(sandbox.csp).not.toContain('listing-loses');
    expect(sandbox.csp).not.toContain("'unsafe-hashes'");

    const lines = activity.map((e) => `${e.kind} ${e.method} ${e.outcome}: ${e.detail}`);
    expect(lines).toEqual([
      'open open info: for show_probe, its _meta.ui read from the resource itself',
      'csp script/style/img/font/media-src allowed: allowed https://cdn.example.com',
      `csp script/style/img/font/media-src refused: refused "'unsafe-hashes'": contains a space, quote, comma or semicolon (a CSP keyword or a second directive)`,
      'csp script/style/img/font/media-src refused: refused "*": not a domain (a bare * would allow every site)',
      'permission clipboardWrite allowed: allowed (the browser still asks for a click in the app)',
      expect.stringMatching(/^permission camera refused: refused: Harbor does not pass camera/),
    ]);
    expect(new Set(activity.map((e) => e.instanceId))).toEqual(new Set([view.instanceId]));
    expect(test.host.apps.activity().map((e) => e.seq)).toEqual(activity.map((e) => e.seq));
  });

  it('falls back to the listing’s _meta.ui when the content has none, and decodes a base64 app', async () => {
    test = await createTestHost({ probe: { command: NODE, args: [PROBE, '--legacy'] } });
    attach(test);
    const view = await test.host.apps.open({ server: 'probe', tool: 'show_listed' });
    expect(view.uri).toBe('ui://probe/listed.html');
    expect(view.html).toContain('Listed app');
    expect(view.policy.csp.connectDomains).toEqual(['https://api.listed.example']);
    expect(view.policy.prefersBorder).toBe(false);
    expect(test.host.apps.sandboxPolicy(view.instanceId)!.csp).toContain('connect-src https://api.listed.example');
  });

  it('says clearly what is wrong with a missing or invalid app resource', async () => {
    test = await createTestHost({ probe: { command: NODE, args: [PROBE] } });
    attach(test);
    await expect(test.host.apps.open({ server: 'probe', tool: 'bad_mime' })).rejects.toMatchObject({ code: 'PROTOCOL_ERROR', message: expect.stringMatching(/"text\/html", not "text\/html;profile=mcp-app"/) });
    await expect(test.host.apps.open({ server: 'probe', tool: 'missing_resource' })).rejects.toMatchObject({ code: 'PROTOCOL_ERROR', message: expect.stringMatching(/could not give its app ui:\/\/probe\/missing\.html/) });
    await expect(test.host.apps.open({ server: 'probe', tool: 'model_only' })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/has no app/) });
    await expect(test.host.apps.open({ server: 'probe', uri: 'https://example.com/app.html' })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/ui:\/\//) });
  });

  it('opens the published example apps (React, vanilla JS, system monitor, budget allocator)', async () => {
    test = await createTestHost({
      react: npmServer('server-basic-react'),
      vanilla: npmServer('server-basic-vanillajs'),
      monitor: npmServer('server-system-monitor'),
      budget: npmServer('server-budget-allocator'),
    });
    attach(test);
    for (const [server, tool] of [['react', 'get-time'], ['vanilla', 'get-time'], ['monitor', 'get-system-info'], ['budget', 'get-budget-data']]) {
      const view = await test.host.apps.open({ server: server!, tool: tool! });
      expect(view.html, server).toMatch(/<html/i);
      expect(view.policy.csp.connectDomains, server).toEqual([]);
      expect(test.host.apps.sandboxPolicy(view.instanceId)!.csp, server).toContain("connect-src 'none'");
    }
  });
});

describe('the chat and apps', () => {
  it('streams the arguments of a call to a tool with an app as the model writes them, and only for such tools', async () => {
    model = await startScriptedModel({
      script: [
        {
          toolCalls: [
            { name: 'probe__show_probe', arguments: { note: 'written a piece at a time' }, argumentChunks: 4 },
            { name: 'probe__model_only', arguments: { note: 'no app here' }, argumentChunks: 3 },
          ],
        },
        { text: 'done' },
      ],
    });
    test = await createChatHost({ probe: { command: NODE, args: [PROBE] } }, { model: model.modelConfig() });
    const streamed: { toolCallId: string; server: string; tool: string; text: string; resourceUri?: string }[] = [];
    disposeAfterTest(test.host.events.onEvent('chat.toolInput', ({ toolCallId, server, tool, text, resourceUri }) => streamed.push({ toolCallId, server, tool, text, ...(resourceUri ? { resourceUri } : {}) })));
    const calls: string[] = [];
    disposeAfterTest(test.host.events.onEvent('chat.toolCall', ({ call }) => calls.push(call.id)));
    const turn = await test.host.chat.send({ text: 'go', approveOnce: true });
    await turn.done;
    expect(streamed.length).toBeGreaterThanOrEqual(2);
    expect(new Set(streamed.map((s) => `${s.server}/${s.tool}`))).toEqual(new Set(['probe/show_probe']));
    // Each names the tool's app, so the page opens it without asking which it is (#32 goal 5).
    expect(new Set(streamed.map((s) => s.resourceUri))).toEqual(new Set(['ui://probe/app.html']));
    const texts = streamed.map((s) => s.text);
    expect(texts.at(-1)).toBe(JSON.stringify({ note: 'written a piece at a time' }));
    for (const [i, text] of texts.entries()) if (i > 0) expect(text.startsWith(texts[i - 1]!)).toBe(true);
    // The streamed call is the call that then runs.
    expect(calls).toContain(streamed[0]!.toolCallId);
  });
});

describe('what an app may do', () => {
  it('calls its own server’s tools through the consent gate, and nothing else; every request is recorded', async () => {
    test = await createTestHost({ probe: { command: NODE, args: [PROBE] }, feature: featureServer() });
    attach(test);
    await test.host.servers.connect('feature');
    const view = await test.host.apps.open({ server: 'probe', tool: 'show_probe' });
    const activity = activityOf(test);
    const id = view.instanceId;

    // The same gate as any call: headless here, so a tool the person has not allowed is refused.
    await expect(test.host.apps.callTool(id, 'app_only', {})).rejects.toMatchObject({ code: 'CONSENT_REQUIRED' });
    test.host.consent.setPolicy('probe', 'app_only', 'allow');
    expect(textOf(await test.host.apps.callTool(id, 'app_only', {}))).toBe('app-only ok');
    // Not offered to apps, or not its server's: refused before anything runs.
    await expect(test.host.apps.callTool(id, 'model_only', {})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(test.host.apps.callTool(id, 'echo', { text: 'x' })).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND', message: expect.stringMatching(/only its own server/) });
    await expect(test.host.apps.callTool(id, 'feature__echo', { text: 'x' })).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND' });
    // Reads and lists stay on its server too.
    expect((await test.host.apps.readResource(id, 'ui://probe/listed.html')).contents).toHaveLength(1);
    expect((await test.host.apps.listTools(id)).tools.map((t) => t.name)).not.toContain('model_only');

    expect(activity.map((e) => `${e.method} ${e.outcome} ${e.detail}`)).toEqual([
      'tools/call refused app_only → CONSENT_REQUIRED',
      'tools/call allowed app_only',
      'tools/call refused model_only',
      'tools/call refused echo {"text":"x"}',
      'tools/call refused feature__echo {"text":"x"}',
      'resources/read allowed ui://probe/listed.html',
      'tools/list allowed its server’s tools for apps',
    ]);
    for (const entry of activity) expect(entry.server).toBe('probe');
  });

  it('a closed app can do nothing more; the page may record what it settled itself', async () => {
    test = await createTestHost({ probe: { command: NODE, args: [PROBE] } });
    attach(test);
    const view = await test.host.apps.open({ server: 'probe', tool: 'show_probe' });
    expect(test.host.apps.recordRequest(view.instanceId, 'ui/open-link', 'refused', 'https://example.com')).toBe(true);
    expect(test.host.apps.close(view.instanceId)).toBe(true);
    expect(test.host.apps.close(view.instanceId)).toBe(false);
    expect(test.host.apps.sandboxPolicy(view.instanceId)).toBeUndefined();
    expect(test.host.apps.recordRequest(view.instanceId, 'ui/open-link', 'allowed', 'x')).toBe(false);
    await expect(test.host.apps.callTool(view.instanceId, 'app_only', {})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(test.host.apps.activity().slice(-2).map((e) => `${e.kind} ${e.method} ${e.outcome}`)).toEqual(['request ui/open-link refused', 'close close info']);
  });

  it('tells the model, on the conversation’s next turn, what an app asked it to know (labelled as the app’s words)', async () => {
    model = await startScriptedModel({ script: [{ text: 'first' }, { text: 'second' }] });
    test = await createChatHost({ probe: { command: NODE, args: [PROBE] } }, { model: model.modelConfig() });
    attach(test);
    const first = await test.host.chat.send({ text: 'hello', approveOnce: true });
    await first.done;
    const view = await test.host.apps.open({ server: 'probe', tool: 'show_probe', conversationId: first.conversationId, toolCallId: 'call-1' });
    test.host.apps.updateModelContext(view.instanceId, [{ type: 'text', text: 'old state' }], undefined);
    test.host.apps.updateModelContext(view.instanceId, [{ type: 'text', text: 'The chart shows March.' }], { month: 3 });
    const second = await test.host.chat.send({ conversationId: first.conversationId, text: 'what does it show?', approveOnce: true });
    await second.done;
    const last = JSON.stringify(model.requests[1]!.messages.at(-1));
    expect(last).toContain('[The probe app] The chart shows March.\\n{\\"month\\":3}');
    expect(last).toContain('not by the person');
    expect(last).toContain('what does it show?');
    expect(last).not.toContain('old state');
    // The first turn, before any update, had none; an app outside a conversation cannot tell the model anything.
    expect(JSON.stringify(model.requests[0]!.messages)).not.toContain('probe app');
    const loose = await test.host.apps.open({ server: 'probe', tool: 'show_probe' });
    expect(() => test!.host.apps.updateModelContext(loose.instanceId, [{ type: 'text', text: 'x' }], undefined)).toThrow(/not shown in a conversation/);
  });
});
