/**
 * The Skills extension, Harbor's side, against real servers over stdio and Streamable HTTP
 * (test/fixtures/servers/modern/skills-server.mjs, built with the SDK's server-side skills) and a
 * hand-written stdio server speaking the wire format (raw-skills.mjs): discovery (every page,
 * skills/get by URI), identity (server, URI), verification of every file, limits from the entry,
 * lazy reads, the verified-file cache, and consent bound to the files' digests.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { createTestHost, FIXTURES, NODE, type TestHost } from '../helpers/host';
import { startListeningServer, type RunningHttpServer } from '../helpers/http-server';
import { HarborError } from '../../main/host/errors';
import type { ErrorCode } from '../../preload/contract';

const SERVER = join(FIXTURES, 'modern/skills-server.mjs');
const RAW = join(FIXTURES, 'modern/raw-skills.mjs');
const WORK = mkdtempSync(join(tmpdir(), 'harbor-skills-'));
const READS = { stdio: join(WORK, 'reads-stdio.log'), http: join(WORK, 'reads-http.log') };
const REVISION = { stdio: join(WORK, 'revision-stdio.txt'), http: join(WORK, 'revision-http.txt') };

let http: RunningHttpServer;

beforeAll(async () => {
  writeFileSync(REVISION.stdio, 'one');
  writeFileSync(REVISION.http, 'one');
  http = await startListeningServer([SERVER, '--http', '0', '--reads-file', READS.http, '--revision-file', REVISION.http]);
});

afterAll(async () => {
  await http.kill();
  rmSync(WORK, { recursive: true, force: true });
});

const TRANSPORTS = {
  stdio: () => ({ command: NODE, args: [SERVER, '--reads-file', READS.stdio, '--revision-file', REVISION.stdio] }),
  http: () => ({ url: http.url }),
} as const;

function expectHarborError(error: unknown, code: ErrorCode): void {
  expect(error).toBeInstanceOf(HarborError);
  expect({ code: (error as HarborError).code, message: (error as HarborError).message }).toMatchObject({ code });
}

function reads(transport: keyof typeof TRANSPORTS): string[] {
  return existsSync(READS[transport]) ? readFileSync(READS[transport], 'utf8').split('\n').filter(Boolean) : [];
}

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])('skills over %s', (transport) => {
  async function host(): Promise<TestHost> {
    writeFileSync(READS[transport], '');
    return disposeAfterTest(await createTestHost({ skills: TRANSPORTS[transport](), twin: { command: NODE, args: [SERVER, '--set', 'twin'] } }));
  }

  it('lists every skill after the server declares the extension, and reads nothing of them', async () => {
    const test = await host();
    const skills = await test.host.skills.list('skills');
    expect(skills.map((s) => s.uri).sort()).toEqual(
      ['changing', 'git', 'git/rebase', 'liar', 'live-data', 'release-notes', 'tampered', 'too-big', 'too-many'].map((p) => `skill://${p}/SKILL.md`).sort(),
    );
    const notes = skills.find((s) => s.name === 'release-notes')!;
    expect(notes).toMatchObject({ server: 'skills', files: 2, approved: false, description: 'Write release notes from a list of merged changes.' });
    expect(skills.find((s) => s.name === 'live-data')).toMatchObject({ files: 'dynamic', verified: false, approved: false });
    expect(skills.find((s) => s.name === 'too-many')?.problem).toMatch(/513 files/);
    expect(reads(transport)).toEqual([]);
    expect(test.host.servers.get('skills').era).toBe('modern');
  });

  it('keeps same-named skills of two servers apart: both listed, each loaded from its own server', async () => {
    const test = await host();
    const [mine, twin] = [await test.host.skills.list('skills'), await test.host.skills.list('twin')];
    expect(mine.find((s) => s.name === 'release-notes')?.server).toBe('skills');
    expect(twin.map((s) => [s.server, s.name])).toEqual([['twin', 'release-notes']]);
    const loaded = await test.host.skills.load({ server: 'twin', name: 'release-notes' }, { approveOnce: true });
    expect(loaded.text).toContain('Twin release notes');
    const own = await test.host.skills.load({ server: 'skills', name: 'release-notes' }, { approveOnce: true });
    expect(own.text).toContain('Group changes by kind');
    // An approval of one server's skill is not the other's (identity is the pair).
    await test.host.skills.grant('twin', 'skill://release-notes/SKILL.md');
    expect((await test.host.skills.list('twin'))[0]!.approved).toBe(true);
    expect((await test.host.skills.list('skills')).find((s) => s.name === 'release-notes')!.approved).toBe(false);
  });

  it('refuses a file whose digest differs from the entry: the content is not used, the log says why', async () => {
    const test = await host();
    await test.host.skills.grant('skills', 'skill://tampered/SKILL.md');
    await expect(test.host.skills.load({ server: 'skills', name: 'tampered' })).resolves.toMatchObject({ verified: true });
    const error = await test.host.skills.readFile({ server: 'skills', name: 'tampered' }, 'scripts/check.sh').catch((e: unknown) => e);
    expectHarborError(error, 'PROTOCOL_ERROR');
    expect((error as Error).message).toMatch(/failed verification: skill:\/\/tampered\/scripts\/check\.sh — its digest differs/);
    expect((error as Error).message).not.toContain('rm -r');
    const log = readFileSync(join(test.dir, 'logs', 'harbor.log'), 'utf8');
    expect(log).toContain('failed verification: skill://tampered/scripts/check.sh');
    expect((await test.host.skills.list('skills')).find((s) => s.name === 'tampered')?.verified).toBe(false);
  });

  it('refuses a SKILL.md whose frontmatter differs from the entry', async () => {
    const test = await host();
    const error = await test.host.skills.load({ server: 'skills', name: 'liar' }, { approveOnce: true }).catch((e: unknown) => e);
    expectHarborError(error, 'PROTOCOL_ERROR');
    expect((error as Error).message).toMatch(/frontmatter differs/);
  });

  it('refuses a file the entry does not list, and a nested skill through its parent, before any request', async () => {
    const test = await host();
    await test.host.skills.grant('skills', 'skill://git/SKILL.md');
    for (const path of ['rebase/SKILL.md', '../tampered/SKILL.md', 'nope.md']) {
      const error = await test.host.skills.readFile({ server: 'skills', name: 'git' }, path).catch((e: unknown) => e);
      expectHarborError(error, 'BAD_REQUEST');
      expect((error as Error).message).toContain('is not a file of the skill "git"');
    }
    expect(reads(transport)).toEqual([]);
  });

  it('refuses skills over the limits (513 files, 17 MiB) from the entry, before any read', async () => {
    const test = await host();
    for (const name of ['too-many', 'too-big']) {
      const error = await test.host.skills.load({ server: 'skills', name }, { approveOnce: true }).catch((e: unknown) => e);
      expectHarborError(error, 'PROTOCOL_ERROR');
      expect((error as Error).message).toMatch(/over the Skills extension's limits.*Nothing of it was read/);
    }
    expect(reads(transport)).toEqual([]);
  });

  it('asks (here: refuses, CONSENT_REQUIRED) before reading an unapproved skill; a grant pins the files; a change asks again naming it', async () => {
    const test = await host();
    writeFileSync(REVISION[transport], 'one');
    const refused = await test.host.skills.load({ server: 'skills', name: 'changing' }).catch((e: unknown) => e);
    expectHarborError(refused, 'CONSENT_REQUIRED');
    expect(reads(transport)).toEqual([]);
    await test.host.skills.grant('skills', 'skill://changing/SKILL.md');
    expect((await test.host.skills.load({ server: 'skills', name: 'changing' })).text).toContain('Revision: one');
    expect(test.host.skills.approvals()).toEqual([expect.objectContaining({ server: 'skills', uri: 'skill://changing/SKILL.md', files: [expect.objectContaining({ digest: expect.stringMatching(/^sha256:/) })] })]);
    writeFileSync(REVISION[transport], 'two');
    const stale = await test.host.skills.load({ server: 'skills', name: 'changing' }).catch((e: unknown) => e);
    expectHarborError(stale, 'CONSENT_STALE');
    expect((stale as Error).message).toMatch(/changed: skill:\/\/changing\/SKILL\.md/);
  });

  it('a nested skill needs its own approval', async () => {
    const test = await host();
    await test.host.skills.grant('skills', 'skill://git/SKILL.md');
    await expect(test.host.skills.load({ server: 'skills', name: 'git' })).resolves.toMatchObject({ name: 'git' });
    expectHarborError(await test.host.skills.load({ server: 'skills', name: 'rebase' }).catch((e: unknown) => e), 'CONSENT_REQUIRED');
  });

  it('a dynamic skill is unverifiable, cannot be pinned, and is asked at every load', async () => {
    const test = await host();
    await expect(test.host.skills.grant('skills', 'skill://live-data/SKILL.md')).rejects.toThrow(/dynamic/);
    expectHarborError(await test.host.skills.load({ server: 'skills', name: 'live-data' }).catch((e: unknown) => e), 'CONSENT_REQUIRED');
    const loaded = await test.host.skills.load({ server: 'skills', name: 'live-data' }, { approveOnce: true });
    expect(loaded).toMatchObject({ verified: false, files: 'dynamic' });
    expectHarborError(await test.host.skills.load({ server: 'skills', name: 'live-data' }).catch((e: unknown) => e), 'CONSENT_REQUIRED');
  });

  it('caches verified files owner-only under the server identity, and reuses them while the digest matches', async () => {
    const test = await host();
    await test.host.skills.grant('skills', 'skill://release-notes/SKILL.md');
    await test.host.skills.load({ server: 'skills', name: 'release-notes' });
    await test.host.skills.readFile({ server: 'skills', name: 'release-notes' }, 'references/STYLE.md');
    expect(reads(transport)).toEqual(['skill://release-notes/SKILL.md', 'skill://release-notes/references/STYLE.md']);
    await test.host.skills.load({ server: 'skills', name: 'release-notes' });
    const again = await test.host.skills.readFile({ server: 'skills', name: 'release-notes' }, 'references/STYLE.md');
    expect(again).toMatchObject({ cached: true, verified: true, text: '# Style\n\nPlain words, one line per change.\n' });
    expect(reads(transport)).toHaveLength(2);
    expect((await test.host.skills.list('skills')).find((s) => s.name === 'release-notes')?.verified).toBe(true);
    const cache = join(test.dir, 'skills', 'cache');
    const [folder] = readdirSync(cache);
    expect(folder).toMatch(transport === 'stdio' ? /^stdio-[0-9a-f]{32}$/ : /^http-[0-9a-f]{32}$/);
    expect(statSync(join(cache, folder!)).mode & 0o777).toBe(0o700);
    for (const file of readdirSync(join(cache, folder!))) expect(statSync(join(cache, folder!, file)).mode & 0o777).toBe(0o600);
  });
});

describe('the raw wire-format server', () => {
  it('walks every page of skills/list and gets a skill named only by its URI', async () => {
    const events = join(WORK, 'raw-events.log');
    const test = disposeAfterTest(await createTestHost({ raw: { command: NODE, args: [RAW, '--events-file', events] } }));
    const skills = await test.host.skills.list('raw');
    expect(skills.map((s) => s.name)).toEqual(['alpha', 'beta']);
    const hidden = await test.host.skills.load({ server: 'raw', uri: 'skill://raw/hidden/SKILL.md' }, { approveOnce: true });
    expect(hidden).toMatchObject({ name: 'hidden', verified: true });
    const alpha = await test.host.skills.readFile({ server: 'raw', name: 'alpha' }, 'notes.txt', { approveOnce: true });
    expect(alpha).toMatchObject({ text: 'alpha notes\n', verified: true });
    const log = readFileSync(events, 'utf8');
    expect(log).toContain('skills/list page-2');
    expect(log).toContain('skills/get skill://raw/hidden/SKILL.md');
  });
});
