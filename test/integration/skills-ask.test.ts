/**
 * Skill consent where a person can be asked (the app and browser mode): loading a skill the person
 * has not approved asks through the Host's one consent queue (`consent.request`, kind "skill") with
 * the server, the frontmatter, the file list with sizes and the SKILL.md text once read; the choices
 * are once / always / deny; "always" pins the entry's files; a changed file asks again with what
 * changed (before/after per file, the tool diff's shape). Real servers over stdio and HTTP.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { createTestHost, FIXTURES, NODE, type TestHost } from '../helpers/host';
import { startListeningServer, type RunningHttpServer } from '../helpers/http-server';
import type { ConsentChoice, ConsentRequest } from '../../preload/contract';

const SERVER = join(FIXTURES, 'modern/skills-server.mjs');
const WORK = mkdtempSync(join(tmpdir(), 'harbor-skills-ask-'));
const REVISION = { stdio: join(WORK, 'revision-stdio.txt'), http: join(WORK, 'revision-http.txt') };
let http: RunningHttpServer;

beforeAll(async () => {
  writeFileSync(REVISION.stdio, 'one');
  writeFileSync(REVISION.http, 'one');
  http = await startListeningServer([SERVER, '--http', '0', '--revision-file', REVISION.http]);
});
afterAll(async () => {
  await http.kill();
  rmSync(WORK, { recursive: true, force: true });
});

const TRANSPORTS = {
  stdio: () => ({ command: NODE, args: [SERVER, '--revision-file', REVISION.stdio] }),
  http: () => ({ url: http.url }),
} as const;

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])('skill consent in the app, over %s', (transport) => {
  /** A Host as browser mode builds it (a person can be asked), answering each skill question with the next choice. */
  async function host(answers: ConsentChoice[]): Promise<{ test: TestHost; asked: ConsentRequest[] }> {
    const test = disposeAfterTest(await createTestHost({ skills: TRANSPORTS[transport]() }, { mode: 'web' }));
    const asked: ConsentRequest[] = [];
    disposeAfterTest(
      test.host.events.onEvent('consent.request', (request) => {
        asked.push(request);
        void test.host.consent.respond(request.id, answers.shift() ?? 'deny');
      }),
    );
    return { test, asked };
  }

  it('asks with the server, the frontmatter, the files with sizes and the SKILL.md text; "always" pins the files and is not asked again', async () => {
    writeFileSync(REVISION[transport], 'one');
    const { test, asked } = await host(['always']);
    const loaded = await test.host.skills.load({ server: 'skills', name: 'release-notes' }, { conversationId: 'c1' });
    expect(loaded.text).toContain('Group changes by kind.');
    expect(asked).toHaveLength(1);
    const request = asked[0]!;
    expect(request).toMatchObject({ kind: 'skill', server: 'skills', options: ['once', 'always', 'deny'], conversationId: 'c1', requester: { kind: 'model', conversationId: 'c1' } });
    expect(request.skill).toMatchObject({
      name: 'release-notes',
      uri: 'skill://release-notes/SKILL.md',
      frontmatter: { name: 'release-notes', description: 'Write release notes from a list of merged changes.', 'allowed-tools': 'echo' },
      files: [
        { path: 'SKILL.md', uri: 'skill://release-notes/SKILL.md', size: expect.any(Number) },
        { path: 'references/STYLE.md', uri: 'skill://release-notes/references/STYLE.md', size: Buffer.byteLength('# Style\n\nPlain words, one line per change.\n') },
      ],
    });
    expect(request.skill!.text).toContain('# Release notes');
    expect(test.host.skills.approvals()).toEqual([expect.objectContaining({ uri: 'skill://release-notes/SKILL.md' })]);
    await test.host.skills.load({ server: 'skills', name: 'release-notes' });
    expect(asked).toHaveLength(1);
  });

  it('"Deny" refuses the load (CONSENT_DENIED) and pins nothing; "once" loads without pinning', async () => {
    const { test, asked } = await host(['deny', 'once', 'deny']);
    await expect(test.host.skills.load({ server: 'skills', name: 'git' })).rejects.toMatchObject({ code: 'CONSENT_DENIED' });
    await expect(test.host.skills.load({ server: 'skills', name: 'git' })).resolves.toMatchObject({ name: 'git' });
    await expect(test.host.skills.load({ server: 'skills', name: 'git' })).rejects.toMatchObject({ code: 'CONSENT_DENIED' });
    expect(asked).toHaveLength(3);
    expect(test.host.skills.approvals()).toEqual([]);
  });

  it('a dynamic skill is offered once or deny only, said to be unverifiable', async () => {
    const { test, asked } = await host(['once']);
    await test.host.skills.load({ server: 'skills', name: 'live-data' });
    expect(asked[0]).toMatchObject({ kind: 'skill', options: ['once', 'deny'], skill: { files: 'dynamic' } });
  });

  it('a file changed since "always" asks again, showing each file before and after', async () => {
    writeFileSync(REVISION[transport], 'one');
    const { test, asked } = await host(['always', 'deny']);
    await test.host.skills.load({ server: 'skills', name: 'changing' });
    writeFileSync(REVISION[transport], 'two, longer');
    await expect(test.host.skills.load({ server: 'skills', name: 'changing' })).rejects.toMatchObject({ code: 'CONSENT_DENIED' });
    const again = asked[1]!;
    expect(again.skill?.changes).toEqual([expect.stringMatching(/^changed: skill:\/\/changing\/SKILL\.md/)]);
    expect(again.stale?.changed).toEqual(['SKILL.md']);
    expect(again.stale?.before).toEqual({ 'SKILL.md': expect.stringMatching(/^\d+ bytes, sha256:/) });
    expect(again.stale?.after).toEqual({ 'SKILL.md': expect.stringMatching(/^\d+ bytes, sha256:/) });
    expect((again.stale?.before as Record<string, string>)['SKILL.md']).not.toEqual((again.stale?.after as Record<string, string>)['SKILL.md']);
    expect(again.skill?.text).toContain('Revision: two, longer');
  });
});
