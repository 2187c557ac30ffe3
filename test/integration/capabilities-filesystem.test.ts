/**
 * @modelcontextprotocol/server-filesystem 2026.8.31, started without directory arguments, works
 * from the roots Harbor gives it: it lists and reads a file in a root, refuses a path outside,
 * and follows a change of the registry's roots (notifications/roots/list_changed) without a restart.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestHost, NODE, REPO, waitFor } from '../helpers/host';

const FILESYSTEM_SERVER = join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const base = mkdtempSync(join(tmpdir(), 'harbor-fs-'));
const inside = join(base, 'project');
const later = join(base, 'later');
const outside = join(base, 'private');
for (const dir of [inside, later, outside]) mkdirSync(dir);
writeFileSync(join(inside, 'notes.txt'), 'inside the root\n');
writeFileSync(join(later, 'added.txt'), 'in a root added later\n');
writeFileSync(join(outside, 'secret.txt'), 'never to be read\n');

afterAll(() => rmSync(base, { recursive: true, force: true }));

/** What server-filesystem writes on stderr once it has replaced its allowed folders with the roots. */
const allowedFromRoots = (count: number) => `Updated allowed directories from MCP roots: ${count} valid directories`;

function textOf(result: { content?: unknown }): string {
  return ((result.content as { type: string; text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('\n');
}

describe('server-filesystem from its roots', () => {
  it('lists and reads inside a root, refuses outside, and follows a change of the roots', async () => {
    const test = await createTestHost({ fs: { command: NODE, args: [FILESYSTEM_SERVER], roots: [inside] } });
    try {
      await test.host.servers.connect('fs');
      // The server asks for the roots right after initialize; Harbor answers them.
      await waitFor(() => test.host.traffic.list({ server: 'fs' }).some((e) => e.direction === 'out' && e.text.includes('"roots":[')), 'the roots answer');
      // The server takes the answer in asynchronously (it resolves each root on disk first) and says
      // so on stderr once its allowed folders changed: a call sent before that is refused.
      await waitFor(() => test.host.servers.stderrTail('fs').includes(allowedFromRoots(1)), 'the server to take in the roots');

      const listing = await test.call('fs', 'list_directory', { path: inside });
      expect(textOf(listing)).toContain('[FILE] notes.txt');
      const read = await test.call('fs', 'read_text_file', { path: join(inside, 'notes.txt') });
      expect(textOf(read)).toContain('inside the root');

      const refused = await test.call('fs', 'read_text_file', { path: join(outside, 'secret.txt') });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/Access denied - path outside allowed directories/);
      expect(textOf(refused)).not.toContain('never to be read');

      const entry = (await test.host.registry.view()).servers.find((s) => s.name === 'fs')!.config;
      await test.host.registry.update('fs', { ...entry, roots: [inside, later] });
      await waitFor(() => test.host.traffic.list({ server: 'fs' }).filter((e) => e.direction === 'out' && e.text.includes('"roots":[')).length >= 2, 'the roots asked again');
      await waitFor(() => test.host.servers.stderrTail('fs').includes(allowedFromRoots(2)), 'the server to take in the new roots');
      const added = await test.call('fs', 'read_text_file', { path: join(later, 'added.txt') });
      expect(textOf(added)).toContain('in a root added later');
      expect(test.host.servers.get('fs').state.kind).toBe('ready');
      expect(test.host.traffic.list({ server: 'fs' }).filter((e) => e.method === 'initialize').length).toBe(1);
    } finally {
      await test.dispose();
    }
  });
});
