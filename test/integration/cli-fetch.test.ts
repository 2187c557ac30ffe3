/**
 * A one-shot command asks the server only for what it needs (issue #32): `tools` reads the tools,
 * `call` the tool's definition (validation, consent) and then calls it, `resources` the resources
 * and templates, `prompts` the prompts — never the other lists. Seen in --trace, which prints every
 * JSON-RPC message Harbor sends, against server-everything (which offers all four).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { EVERYTHING_SERVER, NODE } from '../helpers/host';

let registry: ReturnType<typeof tempRegistry>;
beforeAll(() => {
  registry = tempRegistry({ everything: { command: NODE, args: [EVERYTHING_SERVER] } });
});
afterAll(() => registry.remove());

/** The methods of the requests Harbor sent, in order (notifications and answers left out). */
async function requestsSent(args: string[]): Promise<string[]> {
  const run = await runCli(['--config', registry.config, '--data-dir', registry.dir, '--trace', ...args, '--yes'], { timeoutMs: 90_000 });
  expect(run.code, run.stderr).toBe(0);
  return run.stderr
    .split('\n')
    .filter((line) => line.startsWith('[everything] -> '))
    .map((line) => JSON.parse(line.slice('[everything] -> '.length)) as { method?: string; id?: unknown })
    .filter((message) => message.method !== undefined && message.id !== undefined)
    .map((message) => message.method!);
}

const LISTS = ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list'];
const lists = (methods: string[]) => methods.filter((m) => LISTS.includes(m)).sort();

describe('a one-shot command fetches only what it needs', () => {
  it('tools NAME: tools/list only', async () => {
    expect(lists(await requestsSent(['tools', 'everything']))).toEqual(['tools/list']);
  }, 120_000);

  it('call NAME TOOL: tools/list, then tools/call', async () => {
    const sent = await requestsSent(['call', 'everything', 'echo', '--args', '{"message":"hi"}']);
    expect(lists(sent)).toEqual(['tools/list']);
    expect(sent).toContain('tools/call');
  }, 120_000);

  it('resources NAME: resources/list and resources/templates/list only', async () => {
    expect(lists(await requestsSent(['resources', 'everything']))).toEqual(['resources/list', 'resources/templates/list']);
  }, 120_000);

  it('prompts NAME: prompts/list only', async () => {
    expect(lists(await requestsSent(['prompts', 'everything']))).toEqual(['prompts/list']);
  }, 120_000);
});
