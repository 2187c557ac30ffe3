/**
 * Installing through the Host's contract commands, as the app does (the dispatcher checks every
 * request and response against the contract): a bundle uploaded in pieces, reviewed, installed,
 * its tool called, removed with its files; the desktop app's opened file as an event; the
 * gallery's settings, search and install against a local MCP Registry; the sandbox installed
 * servers get (the sandbox's setting, this machine).
 */
import { readFileSync } from 'node:fs';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_UPLOAD_CHUNK_CHARS, type BundleReviewData, type CommandName, type CommandResponse } from '../../preload/contract';
import { bindCommands } from '../../main/contract-handlers';
import { createDispatcher } from '../../main/dispatch';
import type { SandboxAvailability } from '../../main/host/sandbox/availability';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import type { HostOptions } from '../../main/host/services/host-options';
import { packBundle } from '../helpers/bundles';
import { createTestHost, waitFor, type TestHost } from '../helpers/host';
import { startRegistry, type LocalRegistry } from '../helpers/registry-server';
import { requireSandboxInCi } from '../helpers/sandbox';

let scratch: string;
let bundle: string;
let registry: LocalRegistry;
/** The real check: where it passes, the installed bundle below runs inside the sandbox. */
const sandboxed = (await requireSandboxInCi()) === undefined;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'harbor-installs-host-'));
  bundle = await packBundle('hello', scratch);
  registry = await startRegistry({ bundles: [bundle] });
}, 120_000);

afterAll(async () => {
  await registry?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

async function withHost(
  run: (t: TestHost, send: <K extends CommandName>(command: K, payload: unknown) => Promise<CommandResponse<K>>, secrets: MemorySecretStore) => Promise<void>,
  options: Partial<HostOptions> = {},
): Promise<void> {
  const secrets = new MemorySecretStore();
  const t = await createTestHost({}, { secrets, mode: 'web', ...options });
  const dispatch = createDispatcher(bindCommands(t.host), { checkResponses: true });
  const send = async <K extends CommandName>(command: K, payload: unknown): Promise<CommandResponse<K>> => {
    const result = await dispatch(command, payload);
    if (!result.ok) throw new Error(`${command}: ${result.error.code} ${result.error.message}`);
    return result.value as CommandResponse<K>;
  };
  try {
    await run(t, send, secrets);
  } finally {
    await t.dispose();
  }
}

/** The server's registry entry as saved. */
function entryOf(t: TestHost, name: string): unknown {
  return t.host.registry.requireValid().servers.get(name);
}

describe('bundles through the contract', () => {
  it('upload in pieces → review → dry run → install → tool call → remove takes the files', async () => {
    await withHost(async (t, send, secrets) => {
      const bytes = readFileSync(bundle).toString('base64');
      const chunk = BUNDLE_UPLOAD_CHUNK_CHARS - (BUNDLE_UPLOAD_CHUNK_CHARS % 4);
      let uploadId: string | undefined;
      let review: BundleReviewData | undefined;
      for (let at = 0; at < bytes.length; at += chunk) {
        const answer = await send('bundles.upload', { ...(uploadId ? { uploadId } : {}), fileName: 'hello.mcpb', chunk: bytes.slice(at, at + chunk), last: at + chunk >= bytes.length });
        uploadId = answer.uploadId;
        review = answer.review;
      }
      expect(review).toMatchObject({ name: 'hello-bundle', version: '1.0.0', suggestedName: 'hello-bundle', signature: { status: 'unsigned' }, sandbox: { requested: sandboxed, enforced: sandboxed } });
      expect(review!.settings.map((s) => s.key)).toEqual(['api_key', 'greeting', 'root']);

      const plan = await send('bundles.install', { id: review!.id, values: { api_key: 'key-123' }, dryRun: true });
      expect(plan.installed).toBe(false);
      expect(existsSync(join(t.dir, 'bundles'))).toBe(false);

      const done = await send('bundles.install', { id: review!.id, values: { api_key: 'key-123' } });
      expect(done).toMatchObject({ installed: true, summary: { name: 'hello-bundle' } });
      expect(entryOf(t, 'hello-bundle')).toMatchObject(sandboxed ? { sandbox: true } : {});
      expect(await secrets.get('hello-bundle-api_key')).toBe('key-123');
      const result = await t.call('hello-bundle', 'greet', { name: 'Ada' });
      expect(JSON.stringify(result)).toContain('Hello, Ada!');

      // The review is gone once installed.
      await expect(send('bundles.install', { id: review!.id, values: {} })).rejects.toThrow(/no longer waiting/);

      await send('servers.remove', { name: 'hello-bundle' });
      await waitFor(() => !existsSync(join(t.dir, 'bundles')), 'the bundle folder to be removed');
    });
  }, 60_000);

  it('an upload larger than the cap is refused as it arrives', async () => {
    await withHost(async (_t, send) => {
      const piece = 'A'.repeat(BUNDLE_UPLOAD_CHUNK_CHARS - (BUNDLE_UPLOAD_CHUNK_CHARS % 4));
      let uploadId: string | undefined;
      const refused = (async () => {
        for (let i = 0; i < 400; i++) uploadId = (await send('bundles.upload', { ...(uploadId ? { uploadId } : {}), fileName: 'big.mcpb', chunk: piece, last: false })).uploadId;
      })();
      await expect(refused).rejects.toThrow(/Harbor installs bundles up to 128 MiB/);
    });
  }, 60_000);

  it('a file the desktop app opened is announced (bundles.opened) and waits in bundles.pending until discarded', async () => {
    await withHost(async (t, send) => {
      const opened: string[] = [];
      const listening = t.host.events.onEvent('bundles.opened', (review) => opened.push(review.name));
      try {
        const review = await t.host.bundles.openFile(bundle, true);
        expect(opened).toEqual(['hello-bundle']);
        expect((await send('bundles.pending', {})).map((r) => r.id)).toEqual([review.id]);
        expect(await send('bundles.discard', { id: review.id })).toEqual({ discarded: true });
        expect(await send('bundles.pending', {})).toEqual([]);
      } finally {
        await listening.dispose();
      }
    });
  });
});

describe('the gallery through the contract', () => {
  it('settings, search and an MCPB install from the local registry', async () => {
    await withHost(async (t, send) => {
      expect(await send('gallery.settings', {})).toEqual({ registries: ['https://registry.modelcontextprotocol.io'] });
      expect(await send('gallery.setSettings', { registries: [registry.url] })).toEqual({ registries: [registry.url] });
      expect(await send('sandbox.setInstallDefault', { sandbox: false })).toMatchObject({ sandboxInstalled: false });
      const page = await send('gallery.search', { query: 'hello' });
      expect(page.registry).toBe(registry.url);
      const [hello] = page.servers;
      expect(hello).toMatchObject({ name: 'io.github.harbor-desktop/hello-bundle', options: [{ type: 'mcpb', supported: true }] });
      const review = await send('gallery.fetchBundle', { registry: registry.url, server: hello!.name, version: hello!.version, option: 0 });
      const done = await send('bundles.install', { id: review.id, values: { api_key: 'k' } });
      // The sandbox setting is off: no sandbox field written, and the plan says why.
      expect(done.plan.config).not.toHaveProperty('sandbox');
      expect(done.plan.sandbox).toMatchObject({ requested: false, enforced: false, note: expect.stringMatching(/setting .* is off/) });
      const time = await send('gallery.install', { registry: registry.url, server: 'io.github.modelcontextprotocol/time', version: '0.6.2', option: 0, values: {} });
      expect(time.plan).toMatchObject({ server: 'time', target: 'uvx mcp-server-time==0.6.2' });
      expect(t.host.servers.names().sort()).toEqual(['hello-bundle', 'time']);
    });
  }, 60_000);
});

describe('the sandbox installed servers get', () => {
  const canSandbox = async (): Promise<SandboxAvailability> => ({ available: true, mechanism: 'bubblewrap' });
  const cannot = async (): Promise<SandboxAvailability> => ({ available: false, reason: 'no bubblewrap here', fix: 'install bubblewrap' });

  it('with the setting on, an installed stdio server gets "sandbox" (npx and uvx: the registry they download from); off, none', async () => {
    await withHost(
      async (t, send) => {
        await send('gallery.setSettings', { registries: [registry.url] });
        const everything = await send('gallery.install', { registry: registry.url, server: 'io.modelcontextprotocol/everything', version: '2026.8.31', option: 0, values: {} });
        expect(entryOf(t, 'everything')).toMatchObject({ sandbox: { allowedDomains: ['registry.npmjs.org'] } });
        expect(everything.plan.sandbox).toMatchObject({ requested: true, enforced: true, allowed: expect.arrayContaining(['connect only to registry.npmjs.org']) });
        await send('gallery.install', { registry: registry.url, server: 'io.github.modelcontextprotocol/time', version: '0.6.2', option: 0, values: {} });
        expect(entryOf(t, 'time')).toMatchObject({ sandbox: { allowedDomains: ['pypi.org', 'files.pythonhosted.org'] } });
        const bundleReview = await t.host.bundles.openFile(bundle);
        expect(bundleReview.sandbox).toMatchObject({ requested: true, enforced: true });
        await send('bundles.install', { id: bundleReview.id, values: { api_key: 'k' } });
        expect(entryOf(t, 'hello-bundle')).toMatchObject({ sandbox: true });

        await send('sandbox.setInstallDefault', { sandbox: false });
        await send('servers.remove', { name: 'time' });
        const time = await send('gallery.install', { registry: registry.url, server: 'io.github.modelcontextprotocol/time', version: '0.6.2', option: 0, values: {} });
        expect(entryOf(t, 'time')).not.toHaveProperty('sandbox');
        expect(time.plan.sandbox).toMatchObject({ requested: false, enforced: false, note: expect.stringMatching(/setting .* is off/) });
        // The setting is one entry: the gallery's registries are kept beside it.
        expect(await send('gallery.settings', {})).toEqual({ registries: [registry.url] });
      },
      { sandbox: { checkAvailability: canSandbox } },
    );
  }, 60_000);

  it('where this machine cannot run the sandbox, the setting writes nothing and the review says why', async () => {
    await withHost(
      async (t, send) => {
        await send('gallery.setSettings', { registries: [registry.url] });
        const time = await send('gallery.install', { registry: registry.url, server: 'io.github.modelcontextprotocol/time', version: '0.6.2', option: 0, values: {} });
        expect(entryOf(t, 'time')).not.toHaveProperty('sandbox');
        expect(time.plan.sandbox).toMatchObject({ requested: false, enforced: false, note: expect.stringContaining('this machine cannot run the sandbox (no bubblewrap here)') });
        const bundleReview = await t.host.bundles.openFile(bundle);
        expect(bundleReview.sandbox).toMatchObject({ requested: false, enforced: false });
      },
      { sandbox: { checkAvailability: cannot } },
    );
  }, 60_000);
});
