/**
 * `host.code`, the door `harbor exec` runs through: a program runs in the Host's code sandbox,
 * each call through the gated call door, and what leaves — the outcome and the events on the
 * way — is masked like every other door's answer. The script asks a server to echo a value the
 * person keeps in the keychain: neither its return value, its log line nor its call record shows it.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeRunEvent } from '../../main/host/code-mode/script-run';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { createTestHost, FEATURE_SERVER, NODE, type TestHost } from '../helpers/host';

let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

describe('host.code (the code-mode door)', () => {
  it('runs a program in the Host sandbox; its result, logs and call records leave masked', { timeout: 60_000 }, async () => {
    const secret = `sk-code-${randomBytes(12).toString('hex')}`;
    current = await createTestHost({ feat: { command: NODE, args: [FEATURE_SERVER] } }, { secrets: new MemorySecretStore() });
    const { host } = current;
    await host.secrets.set('known-token', secret);
    const { declarations } = await host.code.declarations();
    expect(declarations).toContain('echo');

    const events: CodeRunEvent[] = [];
    const outcome = await host.code.run({
      code: `const r = await tools.feat.echo({ text: ${JSON.stringify(secret)} }); console.log(JSON.stringify(r)); return r;`,
      approveCalls: true,
      onEvent: (event) => events.push(event),
    });
    expect(outcome.ok).toBe(true);
    expect(outcome.callCount).toBe(1);
    expect(JSON.stringify(outcome)).toContain('***');
    expect(JSON.stringify(outcome)).not.toContain(secret);
    expect(events.some((e) => e.type === 'log')).toBe(true);
    expect(JSON.stringify(events)).not.toContain(secret);
  });
});
