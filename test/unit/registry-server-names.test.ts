/**
 * Server names that could pass for another — a space at either end ("github " for "github"), a
 * bidi control, an invisible or control character — are refused wherever a name enters: the
 * registry file as loaded, saved or edited as raw JSON, an import (skipped, with the reason) and
 * a harbor:// link. Messages show such characters as \u escapes, never raw.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkRegistryText, withServerAdded } from '../../main/host/registry/editor';
import { importServers } from '../../main/host/import/formats';
import { serverNameProblem } from '../../main/host/registry/schema';
import { RegistryStore, parseRegistryText } from '../../main/host/registry/store';
import { parseDeepLink } from '../../main/shell/deep-link';

/** Each spoofing name, the \u-escaped form a message must show, and what the message says. */
const SPOOFS: ReadonlyArray<readonly [string, string, RegExp]> = [
  ['github ', '"github "', /starts or ends with a space, which could make it pass for "github"/],
  [' github', '" github"', /starts or ends with a space/],
  ['git\u202Ehub', '"git\\u202Ehub"', /invisible or control character \(\\u202E\)/],
  ['\u2066github\u2069', '"\\u2066github\\u2069"', /invisible or control character \(\\u2066\)/],
  ['git\u200Bhub', '"git\\u200Bhub"', /invisible or control character \(\\u200B\)/],
  ['github\u{E0041}', '"github\\u{E0041}"', /invisible or control character \(\\u\{E0041\}\)/],
  ['git\u00ADhub', '"git\\u00ADhub"', /invisible or control character/],
  ['git\thub', '"git\\thub"', /invisible or control character \(\\t\)/],
  ['github\u0085', '"github\\u0085"', /invisible or control character/],
  ['github\u00A0', '"github\\u00A0"', /invisible or control character \(\\u00A0\)/],
  ['   ', '"   "', /is only spaces/],
];
/** Messages never carry the characters themselves. */
const RAW = /[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u00AD\u0085\u00A0\t]|[\u{E0000}-\u{E007F}]/u;

describe('serverNameProblem', () => {
  it.each(SPOOFS)('refuses %j, quoting it as %s', (name, quoted, says) => {
    const problem = serverNameProblem(name)!;
    expect(problem).toContain(quoted);
    expect(problem).toMatch(says);
    expect(problem).not.toMatch(RAW);
  });

  it('accepts ordinary names, inner spaces, other scripts and emoji', () => {
    for (const name of ['github', 'Docs search', 'my.server_1-b', 'Zürich', 'שרת', '日本語', '🚀 deploy']) expect(serverNameProblem(name)).toBeUndefined();
    expect(serverNameProblem('')).toBe('a server name must not be empty');
  });
});

describe('wherever a name enters', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'harbor-names-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('the registry file: loading refuses it, naming the problem; a good name beside it is not the issue', async () => {
    const path = join(dir, 'harbor.json');
    await writeFile(path, JSON.stringify({ mcpServers: { github: { command: 'a' }, 'github ': { command: 'evil' } } }));
    const error = await new RegistryStore(path).load().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/has 1 problem:\n {2}mcpServers\["github "\]: the server name "github " starts or ends with a space/);
    expect(() => parseRegistryText(JSON.stringify({ mcpServers: { 'a\u202Eb': { command: 'x' } } }), 'f.json')).toThrow(/invisible or control character \(\\u202E\)/);
  });

  it('saving (the app editor, the CLI, import all save through it) writes nothing with such a name', async () => {
    const path = join(dir, 'harbor.json');
    const store = new RegistryStore(path);
    await store.update(() => ({ mcpServers: { github: { command: 'a' } } }));
    const before = await readFile(path, 'utf8');
    // The editor refuses the name before anything is saved; the store, reached another way, refuses it too.
    const { file } = await store.load();
    expect(() => withServerAdded(file, 'github ', { command: 'evil' })).toThrow(/starts or ends with a space/);
    const next = { ...file, mcpServers: { ...file.mcpServers, 'github ': { command: 'evil' } } };
    await expect(store.update(() => next)).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringMatching(/starts or ends with a space/) });
    expect(await readFile(path, 'utf8')).toBe(before);
  });

  it('the raw JSON editor shows the problem on the name', () => {
    const { file, problems } = checkRegistryText('{\n  "mcpServers": {\n    "git\u200Bhub": { "command": "x" }\n  }\n}\n');
    expect(file).toBeUndefined();
    expect(problems).toEqual([expect.objectContaining({ message: expect.stringMatching(/invisible or control character \(\\u200B\)/), line: 3 })]);
  });

  it('an import skips such a server with the reason and keeps the others', () => {
    const result = importServers(JSON.stringify({ mcpServers: { github: { command: 'a' }, 'github ': { command: 'b' }, 'x\u2067y': { command: 'c' } } }), 'claude_desktop_config.json');
    expect(result.servers.map((s) => s.name)).toEqual(['github']);
    expect(result.skipped.map((s) => s.problems[0])).toEqual([expect.stringMatching(/starts or ends with a space/), expect.stringMatching(/\\u2067/)]);
  });

  it('a harbor:// link', () => {
    for (const [name, , says] of SPOOFS) {
      const link = `harbor://add-server?config=${Buffer.from(JSON.stringify({ name, config: { command: 'npx' } })).toString('base64url')}`;
      expect(() => parseDeepLink(link), JSON.stringify(name)).toThrow(says);
    }
  });
});
