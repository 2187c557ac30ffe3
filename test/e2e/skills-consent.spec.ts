/**
 * Skill consent in the chat: the model calls load_skill for a skill the person has not approved,
 * and the app asks through the one consent queue — the server, the frontmatter, the file list with
 * sizes and the SKILL.md text (read and verified, not yet given to the model) — with Allow once /
 * Always for this skill / Deny. After "always", a changed file asks again with the tool diff view.
 * Debian Chromium, `harbor web`, real Host, the skills fixture server (SDK), the scripted model.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectErrors, consentDialog, expect, openChat, ROOT, screenshotBoth, send, test } from './chat-fixture';

const SKILLS_SERVER = join(ROOT, 'test/fixtures/servers/modern/skills-server.mjs');

test('an unapproved skill is asked for with its frontmatter, files and SKILL.md; always pins it; a change asks again with the diff', async ({ page, startHarbor }, testInfo) => {
  // Three turns, three dialogs and four screenshots on a shared two-core machine.
  test.setTimeout(180_000);
  // What the `changing` skill's SKILL.md quotes: writing it changes the skill's digest.
  const folder = mkdtempSync(join(tmpdir(), 'harbor-e2e-skill-'));
  const revision = join(folder, 'revision.txt');
  writeFileSync(revision, 'one');
  const harbor = await startHarbor({
    script: [
      { toolCalls: [{ name: 'load_skill', arguments: { server: 'skills', name: 'release-notes' } }] },
      { text: 'Notes skill loaded.' },
      { toolCalls: [{ name: 'load_skill', arguments: { server: 'skills', name: 'changing' } }] },
      { text: 'Changing skill loaded.' },
      { toolCalls: [{ name: 'load_skill', arguments: { server: 'skills', name: 'changing' } }] },
      { text: 'Asked again.' },
    ],
    servers: { skills: { command: process.execPath, args: [SKILLS_SERVER, '--revision-file', revision], trusted: true } },
  });

  const errors = collectErrors(page);
  await openChat(page, harbor);
  const dialog = consentDialog(page);

  // 1. The first load asks: everything the person needs, before the model reads a word of it.
  await send(page, 'write release notes');
  await expect(dialog.getByRole('heading', { name: 'Load the skill “release-notes” from skills?' })).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByText(/instructions from the server/)).toBeVisible();
  const frontmatter = dialog.getByRole('region', { name: 'Frontmatter' });
  await expect(frontmatter).toContainText('allowed-tools');
  await expect(frontmatter).toContainText('Write release notes from a list of merged changes.');
  const files = dialog.getByRole('list', { name: 'Files of the skill' });
  await expect(files.getByRole('listitem')).toHaveCount(2);
  await expect(files.getByRole('listitem').nth(1)).toHaveText(/references\/STYLE\.md\s*43 bytes/);
  await expect(dialog.getByRole('region', { name: 'SKILL.md' })).toContainText('Group changes by kind. Follow references/STYLE.md.');
  await expect(dialog.getByRole('button', { name: 'Deny', exact: true })).toBeFocused();
  // The model has not been given the skill: its first request is the only one so far.
  expect(harbor.model.requests).toHaveLength(1);
  await screenshotBoth(page, 'consent-skill', testInfo);
  await dialog.getByRole('button', { name: 'Always for this skill' }).click();
  await expect(page.getByText('Notes skill loaded.')).toBeVisible();
  expect(harbor.model.requests[1]!.toolResults.at(-1)!.content).toContain('Group changes by kind.');

  // 2. Another skill, always allowed; then its SKILL.md changes on the server.
  await send(page, 'load the changing one');
  await expect(dialog.getByRole('heading', { name: 'Load the skill “changing” from skills?' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Always for this skill' }).click();
  await expect(page.getByText('Changing skill loaded.')).toBeVisible();
  writeFileSync(revision, 'two, and longer');

  // 3. Asked again, with what changed in the tool diff's view.
  await send(page, 'load it again');
  await expect(dialog.getByRole('heading', { name: '“changing” on skills changed since you approved it' })).toBeVisible();
  await expect(dialog.getByText(/Your earlier approval no longer applies/)).toBeVisible();
  const changes = dialog.getByRole('list', { name: 'Changes to SKILL.md' });
  await expect(changes.locator('del')).toHaveText(/^\d+ bytes, sha256:/);
  await expect(changes.locator('ins')).toHaveText(/^\d+ bytes, sha256:/);
  await expect(dialog.getByRole('region', { name: 'SKILL.md' })).toContainText('Revision: two, and longer');
  await screenshotBoth(page, 'consent-skill-changed', testInfo);
  await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
  await expect(page.getByText('Asked again.')).toBeVisible();
  expect(harbor.model.requests.at(-1)!.toolResults.at(-1)!.content).toBe('The person did not allow loading this skill.');
  expect(JSON.stringify(harbor.model.requests.map((r) => r.toolResults))).not.toContain('two, and longer');
  expect(errors).toEqual([]);
  rmSync(folder, { recursive: true, force: true });
});
