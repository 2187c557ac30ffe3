// "did you mean …" for an unknown key that is nearly a known one, anywhere in harbor.json (#31 item 3).
import { describe, expect, it } from 'vitest';
import { unknownKeyHints } from '../../main/host/registry/unknown-keys';

describe('unknownKeyHints', () => {
  it('names the known key a misspelt one was meant to be, at every level', () => {
    expect(
      unknownKeyHints({
        mcpServer: {},
        model: { provider: 'openai-compatible', model: 'm', baseUrl: 'http://x' },
        chat: { maxStep: 3, codeLimits: { timeoutMS: 1 } },
        mcpServers: {
          a: { command: 'x', arg: [], enviroment: {}, sandbox: { allowWrites: [] } },
          r: { url: 'https://e.com', header: {}, samplingModel: [{ provider: 'anthropic', model: 'c', apikey: 'k' }] },
        },
      }),
    ).toEqual([
      'mcpServer: unknown field; did you mean "mcpServers"?',
      'model.baseUrl: unknown field; did you mean "baseURL"?',
      'chat.maxStep: unknown field; did you mean "maxSteps"?',
      'chat.codeLimits.timeoutMS: unknown field; did you mean "timeoutMs"?',
      'mcpServers.a.arg: unknown field; did you mean "args"?',
      'mcpServers.a.sandbox.allowWrites: unknown field; did you mean "allowWrite"?',
      'mcpServers.r.header: unknown field; did you mean "headers"?',
      'mcpServers.r.samplingModel[0].apikey: unknown field; did you mean "apiKey"?',
    ]);
  });

  it('leaves alone fields that are nothing like a known one (other apps\' fields, notes)', () => {
    expect(unknownKeyHints({ $schema: 'x', theme: 'dark', mcpServers: { a: { command: 'x', description: 'mine', autoApprove: [] } } })).toEqual([]);
  });
});
