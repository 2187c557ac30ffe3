/**
 * The model's view of skills, against real servers over stdio and Streamable HTTP and a scripted
 * model: the system prompt lists the skills (server, name, description) and nothing of their files;
 * load_skill loads one (verified, consent first), reads its supporting files only from the entry's
 * list; a verification failure reaches the model as a tool error naming why; allowed-tools grants
 * nothing; the token meter counts the skills. Also the cost figures of the report (50 skills).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatHost } from '../fixtures/model/chat-host';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { FIXTURES, NODE, type TestHost } from '../helpers/host';
import { startListeningServer, type RunningHttpServer } from '../helpers/http-server';
import { loadTokenCounter, toolTokens } from '../../main/host/tools/tokens';
import { LOAD_SKILL_TOOL, skillsIndexText, type IndexedSkill } from '../../main/host/skills/skill-tool';

const SERVER = join(FIXTURES, 'modern/skills-server.mjs');
let http: RunningHttpServer;
let model: ScriptedModel;

beforeAll(async () => {
  http = await startListeningServer([SERVER, '--http', '0']);
});
afterAll(async () => {
  await http.kill();
  await model?.close();
});

const TRANSPORTS = {
  stdio: () => ({ command: NODE, args: [SERVER] }),
  http: () => ({ url: http.url }),
} as const;

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])('the model and skills over %s', (transport) => {
  async function chat(script: Parameters<typeof startScriptedModel>[0]['script']): Promise<TestHost> {
    await model?.close();
    model = await startScriptedModel({ script });
    return disposeAfterTest(await createChatHost({ skills: TRANSPORTS[transport](), twin: { command: NODE, args: [SERVER, '--set', 'twin'] } }, { model: model.modelConfig() }));
  }

  it('lists the skills in the system prompt, disambiguated by server, and offers load_skill', async () => {
    const test = await chat([{ text: 'ok' }]);
    const turn = await test.host.chat.send({ text: 'hi', approveOnce: true });
    expect((await turn.done).status).toBe('completed');
    const request = model.requests[0]!;
    expect(request.toolNames).toContain('load_skill');
    expect(request.system).toContain('server="skills" name="release-notes": Write release notes from a list of merged changes.');
    expect(request.system).toContain('server="twin" name="release-notes": Release notes the twin way (server B).');
    // Cheap: no file of any skill is in it, and over-limit skills are left out.
    expect(request.system).not.toContain('Group changes by kind');
    expect(request.system).not.toContain('too-many');
  });

  it('load_skill loads the verified SKILL.md and reads a supporting file; a file outside the list is refused', async () => {
    const test = await chat([
      { toolCalls: [{ name: 'load_skill', arguments: { server: 'skills', name: 'release-notes' } }] },
      { toolCalls: [{ name: 'load_skill', arguments: { server: 'skills', name: 'release-notes', file: 'references/STYLE.md' } }] },
      { toolCalls: [{ name: 'load_skill', arguments: { server: 'skills', name: 'release-notes', file: '../tampered/scripts/check.sh' } }] },
      { text: 'done' },
    ]);
    await test.host.skills.grant('skills', 'skill://release-notes/SKILL.md');
    const turn = await test.host.chat.send({ text: 'write notes' });
    expect((await turn.done).status).toBe('completed');
    const results = model.requests.at(-1)!.toolResults.map((r) => r.content);
    expect(results[0]).toContain('Group changes by kind. Follow references/STYLE.md.');
    expect(results[0]).toContain('verified against the server\'s digests');
    expect(results[0]).toContain('<skill-instructions server="skills" trust="untrusted">');
    expect(results[1]).toContain('Plain words, one line per change.');
    expect(results[2]).toContain('is not a file of the skill "release-notes"');
    const count = await loadTokenCounter();
    console.log(`one load of release-notes: ${count(results[0]!)} tokens in the tool result (SKILL.md is ${count(results[0]!.slice(results[0]!.indexOf('---')))} of them)`);
  });

  it('tells the model why a tampered file was refused, and never gives it the content', async () => {
    const test = await chat([
      { toolCalls: [{ name: 'load_skill', arguments: { server: 'skills', name: 'tampered', file: 'scripts/check.sh' } }] },
      { text: 'done' },
    ]);
    await test.host.skills.grant('skills', 'skill://tampered/SKILL.md');
    const turn = await test.host.chat.send({ text: 'check' });
    expect((await turn.done).status).toBe('completed');
    const [result] = model.requests.at(-1)!.toolResults.map((r) => r.content);
    expect(result).toMatch(/failed verification: skill:\/\/tampered\/scripts\/check\.sh — its digest differs/);
    expect(result).not.toContain('rm -r');
  });

  it('an unapproved skill stops the turn (consentRequired) where no one can be asked; --yes loads it', async () => {
    const load = { toolCalls: [{ name: 'load_skill', arguments: { server: 'twin', name: 'release-notes' } }] };
    const test = await chat([load, load, { text: 'done' }]);
    const refused = await test.host.chat.send({ text: 'notes' });
    expect(await refused.done).toMatchObject({ status: 'consentRequired', error: { code: 'CONSENT_REQUIRED' } });
    const allowed = await test.host.chat.send({ text: 'notes', approveOnce: true });
    expect((await allowed.done).status).toBe('completed');
    expect(model.requests.at(-1)!.toolResults[0]!.content).toContain('Twin release notes');
  });

  it("a skill's allowed-tools grants nothing: the tool still needs consent after the skill is loaded", async () => {
    const test = await chat([
      { toolCalls: [{ name: 'load_skill', arguments: { server: 'skills', name: 'release-notes' } }] },
      { toolCalls: [{ name: 'skills__echo', arguments: { text: 'x' } }] },
      { text: 'unreached' },
    ]);
    await test.host.skills.grant('skills', 'skill://release-notes/SKILL.md');
    const turn = await test.host.chat.send({ text: 'notes' });
    expect(await turn.done).toMatchObject({ status: 'consentRequired', error: { code: 'CONSENT_REQUIRED' } });
    expect(model.requests.at(-1)!.toolResults[0]!.content).toContain('allowed-tools');
  });

  it('counts the skills in the token meter', async () => {
    const test = await chat([{ text: 'ok' }]);
    await test.host.servers.connect('skills');
    await test.host.servers.connect('twin');
    const context = await test.host.chat.context();
    expect(context.skillCount).toBe(7); // the twin's one and the main set's loadable six (too-many and too-big left out)
    expect(context.skillTokens).toBeGreaterThan(100);
  });
});

describe('what skills cost in the context', () => {
  it('measures the index for 50 skills and one load', async () => {
    const count = await loadTokenCounter();
    const skills: IndexedSkill[] = Array.from({ length: 50 }, (_, i) => ({
      server: `server-${i % 5}`,
      name: `skill-number-${i}`,
      uri: `skill://skill-number-${i}/SKILL.md`,
      description: 'Write release notes from a list of merged changes, grouped by kind, in plain words.',
      ambiguous: false,
    }));
    const index = count(skillsIndexText(skills));
    const tool = toolTokens(count, LOAD_SKILL_TOOL);
    console.log(`skills index for 50 skills: ${index} tokens (+ ${tool} for the load_skill definition); ${((index + tool) / 50).toFixed(1)} per skill`);
    expect(index).toBeLessThan(50 * 40);
  });
});
