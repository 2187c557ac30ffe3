/**
 * The Skills page: each ready server's skills (the same name on two servers shown under each),
 * searchable, where the person stands on each (approved / not approved / changed since approval /
 * unverifiable dynamic), "View files" from the entry alone (nothing read from the server: the
 * fixture records every read), approve and revoke. Debian Chromium, `harbor web`, real Host, the
 * SDK skills fixture twice (main and twin sets).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectErrors, expect, ROOT, screenshotBoth, test } from './chat-fixture';

const SKILLS_SERVER = join(ROOT, 'test/fixtures/servers/modern/skills-server.mjs');

test('skills per server, searchable, with their approval state; view files reads nothing; approve, revoke, changed since approval', async ({ page, startHarbor }, testInfo) => {
  test.setTimeout(180_000);
  const folder = mkdtempSync(join(tmpdir(), 'harbor-e2e-skills-page-'));
  const revision = join(folder, 'revision.txt');
  const reads = join(folder, 'reads.txt');
  writeFileSync(revision, 'one');
  const harbor = await startHarbor({
    script: [],
    servers: {
      skills: { command: process.execPath, args: [SKILLS_SERVER, '--revision-file', revision, '--reads-file', reads], trusted: true },
      twin: { command: process.execPath, args: [SKILLS_SERVER, '--set', 'twin'], trusted: true },
    },
  });
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(harbor.url);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Skills' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Skills' })).toBeVisible({ timeout: 20_000 });

  // Both servers' release-notes, each under its own server.
  const ours = page.getByRole('region', { name: 'Skills of skills' });
  const twin = page.getByRole('region', { name: 'Skills of twin' });
  await expect(async () => {
    // The page reads the list again when a server becomes ready; reload until both are.
    await expect(twin.getByRole('listitem', { name: 'release-notes on twin' })).toBeVisible({ timeout: 2_000 });
    await expect(ours.getByRole('listitem', { name: 'release-notes on skills' })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const notes = ours.getByRole('listitem', { name: 'release-notes on skills' });
  await expect(notes.getByText('Not approved')).toBeVisible();
  await expect(notes.getByText('2 files, ')).toBeVisible();
  await expect(twin.getByRole('listitem', { name: 'release-notes on twin' }).getByText('Release notes the twin way (server B).')).toBeVisible();
  await expect(ours.getByRole('listitem', { name: 'live-data on skills' }).getByText('Unverifiable (dynamic)')).toBeVisible();
  await expect(ours.getByRole('listitem', { name: 'too-many on skills' }).getByText(/Not loadable: it lists 513 files/)).toBeVisible();

  // Search: both release-notes, nothing else.
  await page.getByRole('searchbox', { name: 'Search skills' }).fill('release');
  await expect(page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) })).toHaveCount(2);
  await page.getByRole('searchbox', { name: 'Search skills' }).fill('');

  // View files: the entry's list with sizes; SKILL.md not read (nothing was read from the server).
  await notes.getByRole('button', { name: 'View files of release-notes on skills' }).click();
  const files = notes.getByRole('region', { name: 'Files of release-notes' });
  await expect(files.getByRole('list', { name: 'Files of the skill' }).getByRole('listitem')).toHaveText([/^SKILL\.md\s*\d+ bytes$/, /^references\/STYLE\.md\s*43 bytes$/]);
  await expect(files.getByText(/Not read yet/)).toBeVisible();
  await expect(files).toContainText('allowed-tools: echo');
  expect(existsSync(reads) ? readFileSync(reads, 'utf8') : '').toBe('');
  await screenshotBoth(page, 'skills-page', testInfo);

  // Approve, then revoke.
  await notes.getByRole('button', { name: 'Approve release-notes on skills' }).click();
  await expect(notes.getByText('Approved', { exact: true })).toBeVisible();
  await notes.getByRole('button', { name: 'Revoke release-notes on skills' }).click();
  await expect(notes.getByText('Not approved')).toBeVisible();

  // Approved, then the server changes the skill's SKILL.md: changed since approval, with what changed.
  const changing = ours.getByRole('listitem', { name: 'changing on skills' });
  await changing.getByRole('button', { name: 'Approve changing on skills' }).click();
  await expect(changing.getByText('Approved', { exact: true })).toBeVisible();
  writeFileSync(revision, 'two, and longer');
  await page.reload();
  await expect(changing.getByText('Changed since approval')).toBeVisible({ timeout: 30_000 });
  await changing.getByRole('button', { name: 'View files of changing on skills' }).click();
  await expect(changing.getByRole('list', { name: 'What changed' })).toContainText(/changed: skill:\/\/changing\/SKILL\.md/);
  await expect(changing.getByRole('button', { name: 'Approve changing on skills' })).toHaveText('Approve as it is now');
  expect(existsSync(reads) ? readFileSync(reads, 'utf8') : '').toBe('');
  expect(errors).toEqual([]);
  rmSync(folder, { recursive: true, force: true });
});
