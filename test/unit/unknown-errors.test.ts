/**
 * Errors Harbor does not recognise are INTERNAL (issue 28 §1), never relabelled as a connection
 * failure: the chat's and `harbor exec`'s gathering of each server's tools keeps a server's real
 * HarborError and names an unknown one INTERNAL with its message.
 */
import { describe, expect, it } from 'vitest';
import type { ChatHost } from '../../main/host/chat/chat-host';
import { gatherTurnTools } from '../../main/host/chat/turn-tools';
import { gatherApi } from '../../main/host/code-mode/api-tools';
import { HarborError } from '../../main/host/errors';

const servers = [
  { name: 'bug', enabled: true, state: { kind: 'ready' as const } },
  { name: 'down', enabled: true, state: { kind: 'ready' as const } },
];
const catalog = async (name: string) => {
  if (name === 'bug') throw new TypeError("Cannot read properties of undefined (reading 'tools')");
  throw new HarborError('CONNECT_FAILED', '"down" could not be reached: connect ECONNREFUSED 127.0.0.1:9');
};

describe('unknown errors stay INTERNAL', () => {
  it('harbor exec: a bug is INTERNAL with its message; a real connection failure keeps its code', async () => {
    const api = await gatherApi({ listServers: () => servers, catalog, disabledTools: () => new Set() });
    expect(api.unavailable.map((u) => [u.server, u.error.code])).toEqual([
      ['bug', 'INTERNAL'],
      ['down', 'CONNECT_FAILED'],
    ]);
    expect(api.unavailable[0]!.error.message).toContain("Cannot read properties of undefined (reading 'tools')");
  });

  it('a chat turn names each missing server with its code and why', async () => {
    const host = { listServers: () => servers, catalog, instructions: async () => undefined } as unknown as ChatHost;
    const settings = { disabledTools: () => new Set<string>(), toolMode: 'all' } as unknown as Parameters<typeof gatherTurnTools>[1];
    const tools = await gatherTurnTools(host, settings, undefined);
    // Each with the error itself too (the chat's "what is missing" line quotes it: chat/turn-missing.ts).
    expect(tools.unavailable.map(({ name, message, error }) => ({ name, message, code: error?.code }))).toEqual([
      { name: 'bug', message: "INTERNAL: Unexpected error: Cannot read properties of undefined (reading 'tools')", code: 'INTERNAL' },
      { name: 'down', message: 'CONNECT_FAILED: "down" could not be reached: connect ECONNREFUSED 127.0.0.1:9', code: 'CONNECT_FAILED' },
    ]);
  });
});
