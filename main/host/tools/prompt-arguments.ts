import type { Prompt } from '@modelcontextprotocol/client';
import { HarborError } from '../errors';

/**
 * A prompt's arguments, checked against what the prompt declares before anything is sent, as a
 * tool's are against its inputSchema: a missing required argument is named locally (exit 2), instead
 * of whatever the server answers — a Python server answered one with its traceback. An argument the
 * prompt does not declare is passed on (as extra tool arguments are: Harbor never refuses what the
 * server may accept). A prompt the catalog does not list is left to the server: the list may be
 * older than the server (it answers "unknown prompt" itself).
 */
export function checkPromptArguments(server: string, prompts: readonly Prompt[], name: string, args: Readonly<Record<string, string>> | undefined): void {
  const prompt = prompts.find((p) => p.name === name);
  if (!prompt) return;
  const declared = prompt.arguments ?? [];
  const given = args ?? {};
  const missing = declared.filter((a) => a.required === true && given[a.name] === undefined);
  if (missing.length === 0) return;
  const takes = `It takes: ${declared.map((a) => `"${a.name}"${a.required ? ' (required)' : ''}`).join(', ')}.`;
  const problems = missing.map((a) => `"${a.name}" is required${a.description ? ` (${a.description})` : ''}`);
  throw new HarborError('BAD_REQUEST', `The arguments for prompt "${name}" of "${server}" do not fit: ${problems.join('; ')}. ${takes} Fix the arguments and ask again.`);
}
