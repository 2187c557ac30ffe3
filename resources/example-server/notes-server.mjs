#!/usr/bin/env node
// Harbor Notes — the example MCP server that ships with Harbor, so a fresh install shows a
// working server with no setup. It speaks MCP 2026-07-28 (and still serves 2025-era clients)
// through @modelcontextprotocol/server v2, and is meant to be read: every MCP feature a host
// shows appears here once.
//
//   node notes-server.mjs [--data-dir DIR] [--http PORT]
//
//   --data-dir DIR  where notes.json lives (env HARBOR_NOTES_DIR; default <tmp>/harbor-notes)
//   --http PORT     serve Streamable HTTP on http://127.0.0.1:PORT/mcp instead of stdio
//                   (env HARBOR_NOTES_HTTP_PORT; 0 picks a free port). Prints
//                   {"listening":"http://127.0.0.1:PORT/mcp"} on stdout once bound.
//
// Options come from argv as well as env: Harbor passes a stdio server only an allowlisted
// environment plus the server's configured `env`.
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as z from 'zod';
import {
  McpServer,
  ResourceTemplate,
  ResourceNotFoundError,
  acceptedContent,
  completable,
  createMcpHandler,
  hostHeaderValidationResponse,
  inputRequired,
  inputResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { NoteStore } from './notes-store.mjs';

const INDEX_URI = 'notes://index';
const TAGS = ['idea', 'todo', 'reference', 'personal'];
const STYLES = ['brief', 'detailed', 'bullet-points', 'action-items'];

/**
 * Bad command line: say what is wrong and how to run it (this lands in Harbor's stderr view).
 * @param {string} problem @returns {never}
 */
function usage(problem) {
  process.stderr.write(`harbor-notes: ${problem}\nusage: notes-server.mjs [--data-dir DIR] [--http PORT]\n`);
  process.exit(2);
}

/** @type {{ 'data-dir'?: string, http?: string }} */
let args = {};
try {
  ({ values: args } = parseArgs({ options: { 'data-dir': { type: 'string' }, http: { type: 'string' } }, strict: true }));
} catch (error) {
  usage(/** @type {Error} */ (error).message);
}
const dataDir = args['data-dir'] ?? process.env.HARBOR_NOTES_DIR ?? path.join(os.tmpdir(), 'harbor-notes');
const httpPort = args.http ?? process.env.HARBOR_NOTES_HTTP_PORT;
if (httpPort !== undefined && !/^\d{1,5}$/.test(httpPort)) usage(`--http needs a port number (0 picks a free one), got "${httpPort}"`);
const store = new NoteStore(path.resolve(dataDir));

/** @typedef {import('./notes-store.mjs').Note} Note */

/** A plain-text tool result. @param {string} message */
const text = (message) => ({ content: [{ type: /** @type {const} */ ('text'), text: message }] });

/** A note as markdown: what notes://note/{id} returns. @param {Note} note */
const noteMarkdown = (note) =>
  `# ${note.title}\n\n${note.body}\n\n_${note.tag ? `#${note.tag} · ` : ''}created ${note.createdAt}_\n`;

/** One line per note, for tool results and the index. @param {Note[]} notes */
const noteLines = (notes) => notes.map((n) => `- [${n.title}](notes://note/${n.id}) (id ${n.id}${n.tag ? `, #${n.tag}` : ''})`).join('\n');

/** A note as a resource link, so a host can open it straight from a tool result. @param {Note} n */
const noteLink = (n) => ({ type: /** @type {const} */ ('resource_link'), uri: `notes://note/${n.id}`, name: `note-${n.id}`, title: n.title, mimeType: 'text/markdown' });

/**
 * Builds one server instance. stdio pins one instance per connection, which announces changes
 * itself; HTTP builds one per request and announces them through `publish` (the handler's bus).
 * @param {{ era: 'legacy' | 'modern', publish?: () => void }} options
 */
function createNotesServer({ era, publish }) {
  const server = new McpServer(
    { name: 'harbor-notes', title: 'Harbor Notes', version: '1.0.0' },
    {
      capabilities: { resources: { subscribe: true, listChanged: true } },
      instructions:
        'Harbor Notes keeps short notes on this computer. Use list_notes or search_notes to find notes ' +
        'before answering questions about them; add_note saves a note (or add_note_interactive to ask the ' +
        'user for it); delete_note removes one permanently, so confirm the id first. Every note is also a ' +
        'resource (notes://note/{id}); notes://index lists them all. The summarize_notes prompt turns the ' +
        'notes into a summary.',
      // Every 2026-07-28 list/read result must say how long it stays fresh. The definitions below never
      // change while the server runs; the notes do (and another process may share the folder), so their
      // results are never cached — our own changes are announced on the listen stream anyway.
      cacheHints: {
        'server/discover': { ttlMs: 3_600_000, cacheScope: 'public' },
        'tools/list': { ttlMs: 3_600_000, cacheScope: 'public' },
        'prompts/list': { ttlMs: 3_600_000, cacheScope: 'public' },
        'resources/templates/list': { ttlMs: 3_600_000, cacheScope: 'public' },
        'resources/list': { ttlMs: 0, cacheScope: 'private' },
        'resources/read': { ttlMs: 0, cacheScope: 'private' },
      },
    },
  );

  // 2025-era clients ask for resources/updated with resources/subscribe (2026-07-28 clients use
  // subscriptions/listen, which the SDK routes and filters itself).
  const subscribed = new Set();
  if (era === 'legacy') {
    server.server.setRequestHandler('resources/subscribe', ({ params }) => {
      subscribed.add(params.uri);
      return {};
    });
    server.server.setRequestHandler('resources/unsubscribe', ({ params }) => {
      subscribed.delete(params.uri);
      return {};
    });
  }
  /** The notes changed: the resource list changed (each note is a resource), and so did the index. */
  const notifyChanged = () => {
    if (publish) return publish();
    server.sendResourceListChanged();
    if (era === 'modern' || subscribed.has(INDEX_URI)) void server.server.sendResourceUpdated({ uri: INDEX_URI }).catch(() => {});
  };

  // --- Tools ---------------------------------------------------------------------------------
  server.registerTool('list_notes', {
    title: 'List notes',
    description: 'List every note with its id, title and tag.',
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, () => {
    const notes = store.list();
    return { content: [{ type: 'text', text: notes.length ? noteLines(notes) : 'There are no notes yet.' }, ...notes.map(noteLink)] };
  });

  server.registerTool('search_notes', {
    title: 'Search notes',
    description: 'Find notes whose title, text or tag contains the query (case-insensitive).',
    inputSchema: z.object({ query: z.string().min(1).describe('Words to look for') }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, ({ query }) => {
    const found = store.search(query);
    if (found.length === 0) return text(`No note matches "${query}".`);
    return { content: [{ type: 'text', text: noteLines(found) }, ...found.map(noteLink)] };
  });

  /** @param {{ title: string, body: string, tag?: string | undefined }} input */
  const addNote = (input) => {
    const note = store.add(input);
    notifyChanged();
    return { content: [{ type: /** @type {const} */ ('text'), text: `Added note ${note.id}: ${note.title}` }, noteLink(note)] };
  };

  server.registerTool('add_note', {
    title: 'Add note',
    description: 'Save a new note.',
    inputSchema: z.object({
      title: z.string().min(1).max(200).describe('A short title'),
      body: z.string().describe('The text of the note (markdown)'),
      tag: z.enum(TAGS).optional().describe('An optional tag'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  }, (input) => addNote(input));

  server.registerTool('delete_note', {
    title: 'Delete note',
    description: 'Delete a note permanently. This cannot be undone.',
    inputSchema: z.object({ id: z.string().describe('The id of the note, as shown by list_notes') }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  }, ({ id }) => {
    const note = store.delete(id);
    if (!note) return { ...text(`There is no note with id ${id}.`), isError: true };
    notifyChanged();
    return text(`Deleted note ${id}: ${note.title}`);
  });

  // Multi-round-trip (input_required): the first call asks the client to collect the note from the
  // user; the client retries the same call with the answer in `inputResponses`.
  const noteForm = z.object({
    title: z.string().min(1).max(200),
    body: z.string().optional(),
    tag: z.enum(TAGS).optional(),
  });
  server.registerTool('add_note_interactive', {
    title: 'Add note (ask me)',
    description: 'Ask the user for a note in a form, then save it.',
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  }, (ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'note');
    if (answer.kind === 'missing') {
      return inputRequired({
        inputRequests: {
          note: inputRequired.elicit({
            message: 'What should the new note say?',
            requestedSchema: {
              type: 'object',
              properties: {
                title: { type: 'string', title: 'Title' },
                body: { type: 'string', title: 'Text' },
                tag: { type: 'string', title: 'Tag', enum: TAGS },
              },
              required: ['title'],
            },
          }),
        },
      });
    }
    if (answer.kind !== 'elicit' || answer.action !== 'accept') return text('Nothing added.');
    // The answer comes from the client: validate it before it reaches the file.
    const content = acceptedContent(ctx.mcpReq.inputResponses, 'note', noteForm);
    if (!content) return { ...text('The note needs a title (at most 200 characters) and a known tag.'), isError: true };
    return addNote({ title: content.title, body: content.body ?? '', tag: content.tag });
  });

  // --- Resources -----------------------------------------------------------------------------
  server.registerResource('notes-index', INDEX_URI, {
    title: 'All notes',
    description: 'A markdown list of every note.',
    mimeType: 'text/markdown',
  }, (uri) => {
    const notes = store.list();
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: `# Notes\n\n${notes.length ? noteLines(notes) : '_No notes yet._'}\n` }] };
  });

  // Every note is a resource: the template's `list` makes each one show up in resources/list.
  server.registerResource('note', new ResourceTemplate('notes://note/{id}', {
    list: () => ({
      resources: store.list().map((n) => ({ uri: `notes://note/${n.id}`, name: `note-${n.id}`, title: n.title, mimeType: 'text/markdown' })),
    }),
    complete: { id: (prefix) => store.list().map((n) => n.id).filter((id) => id.startsWith(prefix)) },
  }), {
    title: 'Note',
    description: 'One note as markdown.',
    mimeType: 'text/markdown',
  }, (uri, { id }) => {
    const note = store.get(String(id));
    if (!note) throw new ResourceNotFoundError(uri.href);
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: noteMarkdown(note) }] };
  });

  // --- Prompts -------------------------------------------------------------------------------
  server.registerPrompt('summarize_notes', {
    title: 'Summarize my notes',
    description: 'Ask the model for a summary of all notes.',
    argsSchema: z.object({
      style: completable(z.string().describe(`How to summarize: ${STYLES.join(', ')}`), (value) =>
        STYLES.filter((s) => s.startsWith(value ?? '')),
      ).optional(),
    }),
  }, ({ style }) => {
    const notes = store.list();
    const all = notes.map((n) => noteMarkdown(n)).join('\n---\n\n') || '(there are no notes)';
    return {
      description: 'Summary of all notes',
      messages: [{
        role: 'user',
        content: { type: 'text', text: `Summarize these notes${style ? ` (style: ${style})` : ''}:\n\n${all}` },
      }],
    };
  });

  return server;
}

// --- Serving -----------------------------------------------------------------------------------
if (httpPort === undefined) {
  // stdio: one pinned instance per connection; it announces changes itself (list_changed, and
  // resources/updated for the index) on the client's subscriptions/listen stream.
  serveStdio(({ era }) => createNotesServer({ era }));
} else {
  // HTTP: a fresh instance per request, so changes are published on the handler's event bus, which
  // feeds every open subscriptions/listen stream.
  const publish = () => {
    handler.notify.resourcesChanged();
    handler.notify.resourceUpdated(INDEX_URI);
  };
  const handler = createMcpHandler(({ era }) => createNotesServer({ era, publish }));
  // Loopback only, and refuse other Host/Origin headers (DNS rebinding: a web page must not reach
  // the notes through the user's browser).
  const guarded = {
    fetch: async (/** @type {Request} */ request) =>
      hostHeaderValidationResponse(request, localhostAllowedHostnames()) ??
      originValidationResponse(request, localhostAllowedOrigins()) ??
      handler.fetch(request),
  };
  const nodeHandler = toNodeHandler(guarded);
  const httpServer = http.createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the MCP endpoint is /mcp\n');
      return;
    }
    void nodeHandler(req, res);
  });
  httpServer.listen(Number(httpPort), '127.0.0.1', () => {
    const address = /** @type {import('node:net').AddressInfo} */ (httpServer.address());
    process.stdout.write(JSON.stringify({ listening: `http://127.0.0.1:${address.port}/mcp` }) + '\n');
  });
  const stop = () => {
    void handler.close();
    httpServer.close();
    httpServer.closeAllConnections();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
