// The bundled example server (Harbor Notes) and the modern fixture servers, driven by the real
// SDK v2 client over real stdio pipes and real HTTP sockets on 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { waitFor } from '../helpers/wait-for';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NOTES_SERVER = path.join(ROOT, 'resources/example-server/notes-server.mjs');
const FEATURE_SERVER = path.join(ROOT, 'test/fixtures/servers/modern/feature-server.mjs');
const NO_DISCOVER = path.join(ROOT, 'test/fixtures/servers/modern/no-discover.mjs');
const PROBE_TIMEOUT_MS = 3000;

/** Teardown steps, run last-first after each test: clients, then processes, then temp dirs. */
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'harbor-example-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function newClient(mode: 'auto' | 'legacy' = 'auto'): Client {
  const client = new Client(
    { name: 't', version: '0' },
    {
      versionNegotiation: { mode, probe: { timeoutMs: PROBE_TIMEOUT_MS } },
      capabilities: { elicitation: { form: {} } },
    },
  );
  cleanups.push(() => client.close());
  return client;
}

/** Connects a fresh client to `node script ...args` over stdio; stderr is kept for failure messages. */
async function connectStdio(script: string, args: string[] = [], env?: Record<string, string>, mode?: 'legacy') {
  const client = newClient(mode);
  const transport = new StdioClientTransport({ command: process.execPath, args: [script, ...args], env, stderr: 'pipe' });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  await client.connect(transport);
  return { client, stderr };
}

/** Stops a child we spawned: SIGTERM, then SIGKILL if it has not exited within 3 s. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

/** Starts `node script --http 0 ...args` and returns the URL it prints once bound. */
async function startHttp(script: string, args: string[] = []): Promise<URL> {
  const child = spawn(process.execPath, [script, '--http', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => stop(child));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no "listening" line within 10 s; stderr: ${stderr}`)), 10_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf('\n');
      if (newline >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, newline));
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening; stderr: ${stderr}`)));
  });
  const { listening } = JSON.parse(line) as { listening: string };
  return new URL(listening);
}

async function connectHttp(url: URL): Promise<Client> {
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

/** The text of the first content block of a tool result or prompt message. */
function firstText(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return first?.type === 'text' ? (first.text ?? '') : '';
}

/** Runtime-only fields of a 2026-07-28 cacheable result (hidden from the SDK's types). */
function cacheFields(result: object): { ttlMs: unknown; cacheScope: unknown } {
  const { ttlMs, cacheScope } = result as { ttlMs?: unknown; cacheScope?: unknown };
  return { ttlMs, cacheScope };
}

describe('Harbor Notes (bundled example server)', () => {
  it('connects as a modern server over stdio and lists its tools with annotations', async () => {
    const { client } = await connectStdio(NOTES_SERVER, ['--data-dir', tempDir()]);
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getServerVersion()?.name).toBe('harbor-notes');
    expect(client.getInstructions()).toContain('Harbor Notes');

    const listed = await client.listTools();
    expect(cacheFields(listed)).toEqual({ ttlMs: 3_600_000, cacheScope: 'public' });
    const tools = new Map(listed.tools.map((tool) => [tool.name, tool]));
    expect([...tools.keys()].sort()).toEqual(['add_note', 'add_note_interactive', 'delete_note', 'list_notes', 'search_notes']);
    expect(tools.get('list_notes')?.title).toBe('List notes');
    expect(tools.get('list_notes')?.annotations?.readOnlyHint).toBe(true);
    expect(tools.get('search_notes')?.annotations?.readOnlyHint).toBe(true);
    expect(tools.get('add_note')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(tools.get('delete_note')?.annotations?.destructiveHint).toBe(true);
    expect(tools.get('add_note_interactive')?.inputSchema.required ?? []).toEqual([]);

    // A fresh data dir starts with the welcome note.
    expect(firstText(await client.callTool({ name: 'list_notes', arguments: {} }))).toContain('Welcome to Harbor');
  });

  it('announces add and delete on the listen stream, and writes the notes file atomically', async () => {
    const dataDir = tempDir();
    const { client } = await connectStdio(NOTES_SERVER, ['--data-dir', dataDir]);
    const seen: string[] = [];
    client.setNotificationHandler('notifications/resources/list_changed', () => void seen.push('list_changed'));
    client.setNotificationHandler('notifications/resources/updated', (n) => void seen.push(`updated ${n.params.uri}`));
    const subscription = await client.listen({ resourcesListChanged: true, resourceSubscriptions: ['notes://index'] });
    expect(subscription.honoredFilter).toMatchObject({ resourcesListChanged: true, resourceSubscriptions: ['notes://index'] });

    const before = await client.listResources();
    expect(cacheFields(before)).toEqual({ ttlMs: 0, cacheScope: 'private' });
    expect(before.resources.map((r) => r.uri)).toEqual(['notes://index', 'notes://note/1']);

    const added = await client.callTool({ name: 'add_note', arguments: { title: 'Groceries', body: 'oat milk, lemons', tag: 'todo' } });
    expect(added.isError).toBeFalsy();
    expect(firstText(added)).toBe('Added note 2: Groceries');
    await waitFor(() => seen.includes('list_changed'), 'list_changed after add_note');
    await waitFor(() => seen.includes('updated notes://index'), 'resources/updated for the index');

    const after = await client.listResources();
    expect(after.resources.find((r) => r.uri === 'notes://note/2')?.title).toBe('Groceries');
    expect(firstText(await client.callTool({ name: 'search_notes', arguments: { query: 'LEMONS' } }))).toContain('Groceries');

    // The file is plain JSON in the data dir; no temp file is left behind.
    const file = JSON.parse(readFileSync(path.join(dataDir, 'notes.json'), 'utf8')) as { notes: Array<{ title: string }> };
    expect(file.notes.map((n) => n.title)).toEqual(['Welcome to Harbor', 'Groceries']);
    expect(readdirSync(dataDir)).toEqual(['notes.json']);

    seen.length = 0;
    expect(firstText(await client.callTool({ name: 'delete_note', arguments: { id: '2' } }))).toBe('Deleted note 2: Groceries');
    await waitFor(() => seen.includes('list_changed'), 'list_changed after delete_note');
    expect((await client.listResources()).resources.map((r) => r.uri)).not.toContain('notes://note/2');
    const again = await client.callTool({ name: 'delete_note', arguments: { id: '2' } });
    expect(again.isError).toBe(true);
    await subscription.close();
  });

  it('add_note_interactive asks for the note through elicitation (input_required) and saves it', async () => {
    const { client } = await connectStdio(NOTES_SERVER, ['--data-dir', tempDir()]);
    const requests: Array<{ message: string; requestedSchema: unknown }> = [];
    let answer: 'accept' | 'decline' = 'accept';
    client.setRequestHandler('elicitation/create', (request) => {
      const params = request.params as { message: string; requestedSchema: unknown };
      requests.push({ message: params.message, requestedSchema: params.requestedSchema });
      return answer === 'accept'
        ? { action: 'accept', content: { title: 'From the form', body: 'typed by a person', tag: 'idea' } }
        : { action: 'decline' };
    });

    const saved = await client.callTool({ name: 'add_note_interactive', arguments: {} });
    expect(saved.isError).toBeFalsy();
    expect(firstText(saved)).toBe('Added note 2: From the form');
    expect(requests).toHaveLength(1);
    expect(requests[0]?.requestedSchema).toMatchObject({
      type: 'object',
      properties: { title: { type: 'string', title: 'Title' }, body: { type: 'string' }, tag: { type: 'string', enum: ['idea', 'todo', 'reference', 'personal'] } },
      required: ['title'],
    });
    const note = await client.readResource({ uri: 'notes://note/2' });
    expect(note.contents[0]).toMatchObject({ uri: 'notes://note/2', mimeType: 'text/markdown' });
    expect((note.contents[0] as { text: string }).text).toContain('typed by a person');

    answer = 'decline';
    const declined = await client.callTool({ name: 'add_note_interactive', arguments: {} });
    expect(declined.isError).toBeFalsy();
    expect(firstText(declined)).toBe('Nothing added.');
    expect((await client.listResources()).resources).toHaveLength(3); // index + 2 notes
  });

  it('reads the index and a note through the template, and gets the prompt with completions', async () => {
    const { client } = await connectStdio(NOTES_SERVER, ['--data-dir', tempDir()]);
    const index = await client.readResource({ uri: 'notes://index' });
    expect(cacheFields(index)).toEqual({ ttlMs: 0, cacheScope: 'private' });
    expect(index.contents[0]).toMatchObject({ uri: 'notes://index', mimeType: 'text/markdown' });
    expect((index.contents[0] as { text: string }).text).toContain('[Welcome to Harbor](notes://note/1)');

    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['notes://note/{id}']);
    const note = await client.readResource({ uri: 'notes://note/1' });
    expect((note.contents[0] as { text: string }).text).toMatch(/^# Welcome to Harbor\n/);
    await expect(client.readResource({ uri: 'notes://note/999' })).rejects.toThrow();

    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((p) => p.name)).toEqual(['summarize_notes']);
    expect(prompts.prompts[0]?.arguments).toEqual([expect.objectContaining({ name: 'style', required: false })]);
    const prompt = await client.getPrompt({ name: 'summarize_notes', arguments: { style: 'brief' } });
    const message = prompt.messages[0]?.content as { type: string; text: string };
    expect(message.text).toContain('(style: brief)');
    expect(message.text).toContain('Welcome to Harbor');
    const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'summarize_notes' }, argument: { name: 'style', value: 'b' } });
    expect(completion.completion.values).toEqual(['brief', 'bullet-points']);
  });

  it('takes the data dir from HARBOR_NOTES_DIR when no flag is given', async () => {
    const dataDir = tempDir();
    const { client } = await connectStdio(NOTES_SERVER, [], { HARBOR_NOTES_DIR: dataDir });
    await client.callTool({ name: 'add_note', arguments: { title: 'via env', body: '' } });
    expect(readFileSync(path.join(dataDir, 'notes.json'), 'utf8')).toContain('via env');
  });

  it('still serves a 2025-era client: elicitation as a real request, resources/subscribe', async () => {
    const { client } = await connectStdio(NOTES_SERVER, ['--data-dir', tempDir()], undefined, 'legacy');
    expect(client.getProtocolEra()).toBe('legacy');
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { title: 'Legacy note' } }));
    const updated: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    await client.subscribeResource({ uri: 'notes://index' });

    expect(firstText(await client.callTool({ name: 'add_note_interactive', arguments: {} }))).toBe('Added note 2: Legacy note');
    await waitFor(() => updated.includes('notes://index'), 'resources/updated on the legacy connection');
  });

  it('serves Streamable HTTP on 127.0.0.1 only, announces changes, and refuses a foreign Host', async () => {
    const url = await startHttp(NOTES_SERVER, ['--data-dir', tempDir()]);
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.pathname).toBe('/mcp');
    const client = await connectHttp(url);
    expect(client.getProtocolEra()).toBe('modern');

    const seen: string[] = [];
    client.setNotificationHandler('notifications/resources/list_changed', () => void seen.push('list_changed'));
    const subscription = await client.listen({ resourcesListChanged: true });
    await client.callTool({ name: 'add_note', arguments: { title: 'Remote', body: 'over HTTP' } });
    await waitFor(() => seen.includes('list_changed'), 'list_changed over HTTP');
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain('notes://note/2');
    await subscription.close();

    // DNS rebinding guard: a request naming another host is refused before it reaches MCP.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = http.request(url, { method: 'POST', headers: { host: 'attacker.example', 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      request.on('error', reject);
      request.end('{}');
    });
    expect(status).toBe(403);
  });
});

describe('feature-server fixture', () => {
  it('lists its tools, returns structured output, reports progress and failures', async () => {
    const { client } = await connectStdio(FEATURE_SERVER, ['--tools-count', '3']);
    expect(client.getProtocolEra()).toBe('modern');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(['echo', 'add', 'slow', 'ask_name', 'fail', 'mutate', 'remove_tool', 'restore_tool', 'touch', 'extra_1', 'extra_2', 'extra_3']);

    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'hi ü' } }))).toBe('hi ü');
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(sum.structuredContent).toEqual({ sum: 5 });

    const progress: Array<{ progress: number; message?: string }> = [];
    const slow = await client.callTool({ name: 'slow', arguments: { steps: 3, delayMs: 20 } }, { onprogress: (p) => void progress.push(p) });
    expect(firstText(slow)).toBe('slow done 3/3');
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[0]).toMatchObject({ progress: 1, total: 3, message: 'step 1/3' });

    const failed = await client.callTool({ name: 'fail', arguments: {} });
    expect(failed.isError).toBe(true);
  });

  it('ask_name uses input_required: accept, decline and cancel', async () => {
    const { client } = await connectStdio(FEATURE_SERVER);
    let reply: { action: 'accept'; content: { name: string } } | { action: 'decline' | 'cancel' } = { action: 'accept', content: { name: 'Ada' } };
    client.setRequestHandler('elicitation/create', () => reply);
    expect(firstText(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe('Hello Ada');
    reply = { action: 'decline' };
    expect(firstText(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe('declined');
    reply = { action: 'cancel' };
    expect(firstText(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe('cancelled');
  });

  it('records a cancelled slow call in the events file (stdio: notifications/cancelled)', async () => {
    const eventsFile = path.join(tempDir(), 'events.txt');
    const { client } = await connectStdio(FEATURE_SERVER, ['--events-file', eventsFile]);
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'slow', arguments: { steps: 100, delayMs: 100 } },
      { signal: controller.signal, onprogress: () => controller.abort('user pressed stop') },
    );
    await expect(call).rejects.toThrow();
    expect(controller.signal.aborted).toBe(true);
    await waitFor(() => {
      try {
        return /^cancelled \S+$/m.test(readFileSync(eventsFile, 'utf8'));
      } catch {
        return false;
      }
    }, 'the cancellation in the events file');
  });

  it('mutate, remove_tool and restore_tool announce tools/list_changed on the listen stream', async () => {
    const { client } = await connectStdio(FEATURE_SERVER);
    let changes = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void (changes += 1));
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter.toolsListChanged).toBe(true);

    await client.callTool({ name: 'mutate', arguments: { description: 'Echo, but changed' } });
    await waitFor(() => changes >= 1, 'list_changed after mutate');
    const echo = (await client.listTools()).tools.find((t) => t.name === 'echo');
    expect(echo?.description).toBe('Echo, but changed');

    await client.callTool({ name: 'remove_tool', arguments: { name: 'add' } });
    await waitFor(() => changes >= 2, 'list_changed after remove_tool');
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('add');
    await client.callTool({ name: 'restore_tool', arguments: { name: 'add' } });
    await waitFor(() => changes >= 3, 'list_changed after restore_tool');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('add');
    await subscription.close();
  });

  it('serves text, non-ASCII and templated resources and a prompt', async () => {
    const { client } = await connectStdio(FEATURE_SERVER);
    const listed = await client.listResources();
    expect(listed.resources.map((r) => r.uri)).toEqual(['fixture://hello', 'fixture://unicode/ünï']);
    expect((await client.readResource({ uri: 'fixture://hello' })).contents[0]).toMatchObject({ text: 'Hello from the feature fixture.' });
    const unicode = await client.readResource({ uri: 'fixture://unicode/ünï' });
    expect(unicode.contents[0]).toMatchObject({ uri: 'fixture://unicode/ünï', text: 'ünïcödé: ünï' });
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toContain('fixture://item/{id}');
    expect((await client.readResource({ uri: 'fixture://item/42' })).contents[0]).toMatchObject({ text: 'item 42' });
    const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Bo' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Hello, Bo!' });
  });

  it('pages tools/list with --page-size', async () => {
    const { client } = await connectStdio(FEATURE_SERVER, ['--tools-count', '10', '--page-size', '4']);
    const first = await client.listTools({ cursor: undefined });
    expect(first.tools).toHaveLength(19); // the SDK follows every page
    const page = await client.listTools({ cursor: '4' });
    expect(page.tools.map((t) => t.name)).toEqual(['fail', 'mutate', 'remove_tool', 'restore_tool']);
    expect(page.nextCursor).toBe('8');
  });

  it('over HTTP: mutate reaches the listen stream and a dropped call is seen as cancelled', async () => {
    const eventsFile = path.join(tempDir(), 'events.txt');
    const url = await startHttp(FEATURE_SERVER, ['--events-file', eventsFile]);
    const client = await connectHttp(url);
    expect(client.getProtocolEra()).toBe('modern');

    let changes = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void (changes += 1));
    const subscription = await client.listen({ toolsListChanged: true });
    await client.callTool({ name: 'mutate', arguments: { description: 'changed over HTTP' } });
    await waitFor(() => changes >= 1, 'list_changed over HTTP');
    expect((await client.listTools()).tools.find((t) => t.name === 'echo')?.description).toBe('changed over HTTP');
    await subscription.close();

    const controller = new AbortController();
    const call = client.callTool(
      { name: 'slow', arguments: { steps: 100, delayMs: 100 } },
      { signal: controller.signal, onprogress: () => controller.abort('stop') },
    );
    await expect(call).rejects.toThrow();
    await waitFor(() => {
      try {
        return /^cancelled \S+$/m.test(readFileSync(eventsFile, 'utf8'));
      } catch {
        return false;
      }
    }, 'the cancellation in the events file');
  });
});

describe('no-discover fixture', () => {
  it('falls back to legacy within about the probe timeout when server/discover is never answered', async () => {
    const eventsFile = path.join(tempDir(), 'events.txt');
    const started = Date.now();
    const { client } = await connectStdio(NO_DISCOVER, ['--events-file', eventsFile]);
    const elapsed = Date.now() - started;
    expect(client.getProtocolEra()).toBe('legacy');
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    // It waited for the probe (≈ PROBE_TIMEOUT_MS), but not much longer: generous slack for 2 cores.
    expect(elapsed).toBeGreaterThanOrEqual(PROBE_TIMEOUT_MS - 200);
    expect(elapsed).toBeLessThan(PROBE_TIMEOUT_MS + 7000);

    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['ping']);
    expect(firstText(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
    const methods = readFileSync(eventsFile, 'utf8').trim().split('\n');
    expect(methods).toContain('server/discover');
    expect(methods).toContain('initialize');
  });
});
