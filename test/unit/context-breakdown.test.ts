/**
 * The token meter's split (instructions, tools, skills, history) over real catalogs: the recorded
 * `tools/list` answers of github and filesystem (test/fixtures/tool-catalogs), the real o200k_base
 * tokenizer, Harbor's real system prompt, and a conversation's messages as the model is sent them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelMessage } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { contextBreakdown, messageTokens } from '../../main/host/chat/context-breakdown';
import { buildSystemPrompt } from '../../main/host/chat/system-prompt';
import { META_TOOLS } from '../../main/host/tools/meta-tools';
import { loadTokenCounter, toolTokens, type TokenCounter } from '../../main/host/tools/tokens';
import { REPO } from '../helpers/host';

interface Catalog {
  readonly server: string;
  readonly tools: { name: string; description?: string; inputSchema: Record<string, unknown> }[];
}
const catalog = (name: string) => JSON.parse(readFileSync(join(REPO, 'test/fixtures/tool-catalogs/servers', `${name}.json`), 'utf8')) as Catalog;

let count: TokenCounter;
let github: Catalog;
let filesystem: Catalog;
let definitions: number;

beforeAll(async () => {
  count = await loadTokenCounter();
  github = catalog('github');
  filesystem = catalog('filesystem');
  definitions = [github, filesystem].flatMap((c) => c.tools.map((t) => toolTokens(count, { name: `${c.server}__${t.name}`, description: t.description ?? '', inputSchema: t.inputSchema }))).reduce((a, b) => a + b, 0);
});

const servers = () => [
  { name: 'github', tools: github.tools.length, instructions: 'Use the GitHub tools for repositories, issues and pull requests.' },
  { name: 'filesystem', tools: filesystem.tools.length },
];

const HISTORY: ModelMessage[] = [
  { role: 'user', content: 'List the open issues of octo/repo.' },
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'github__list_issues', input: { owner: 'octo', repo: 'repo', state: 'open' } }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'github__list_issues', output: { type: 'text', value: '[{"number":1,"title":"Crash on start"}]' } }] },
  { role: 'assistant', content: [{ type: 'text', text: 'One open issue: #1, "Crash on start".' }] },
];

describe('the token meter split', () => {
  it('counts every definition as tools, the system prompt with the servers\' instructions, the skills as given, and nothing of history for a new conversation', () => {
    const split = contextBreakdown({ servers: servers(), toolTokens: definitions, search: false, skillTokens: 321, history: [] }, count);
    expect(definitions).toBeGreaterThan(1000);
    expect(split).toEqual({ instructions: count(buildSystemPrompt({ servers: servers(), unavailable: [], toolSearch: false })), tools: definitions, skills: 321, history: 0 });
    // The servers' instructions are part of "instructions".
    const without = contextBreakdown({ servers: servers().map(({ name, tools }) => ({ name, tools })), toolTokens: definitions, search: false, skillTokens: 0, history: [] }, count);
    expect(split.instructions - without.instructions).toBeGreaterThanOrEqual(count('Use the GitHub tools for repositories, issues and pull requests.'));
  });

  it('with tool search, tools are the two search tools, not every definition', () => {
    const split = contextBreakdown({ servers: servers(), toolTokens: definitions, search: true, skillTokens: 0, history: [] }, count);
    expect(split.tools).toBe(META_TOOLS.reduce((sum, tool) => sum + toolTokens(count, tool), 0));
    expect(split.tools).toBeLessThan(definitions / 10);
  });

  it('history counts the person\'s words, the model\'s, its tool calls and their results', () => {
    const split = contextBreakdown({ servers: servers(), toolTokens: definitions, search: false, skillTokens: 0, history: HISTORY }, count);
    expect(split.history).toBe(HISTORY.reduce((sum, m) => sum + messageTokens(m, count), 0));
    expect(messageTokens(HISTORY[0]!, count)).toBe(count('List the open issues of octo/repo.'));
    expect(messageTokens(HISTORY[1]!, count)).toBe(count('github__list_issues {"owner":"octo","repo":"repo","state":"open"}'));
    expect(messageTokens(HISTORY[2]!, count)).toBeGreaterThanOrEqual(count('[{"number":1,"title":"Crash on start"}]'));
    expect(split.history).toBeGreaterThan(30);
  });
});
