/**
 * #28 §2 "Sign-in status on each remote server": the Host says, in the server's summary (what the
 * card, `harbor servers` and its --json read), whether Harbor is signed in (as whom, until when),
 * the sign-in expired, or the authorization server refused it (in its own words); and a token that
 * expires during a conversation stops the turn with a clear "sign in again", not an opaque tool
 * error. Real authorization server + protected MCP server (test/fixtures/auth), a real Host, a
 * headless browser following the sign-in page, tokens in a MemorySecretStore.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { Redactor } from '../../main/host/secrets/redactor';
import { startAuthFixture, type RunningAuthFixture } from '../fixtures/auth/start';
import { createChatHost } from '../fixtures/model/chat-host';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';
import { createTestHost, waitFor, type TestHost } from '../helpers/host';
import { recordingBrowser } from '../helpers/oauth';

let fixture: RunningAuthFixture | undefined;
let current: TestHost | undefined;
let model: ScriptedModel | undefined;
afterEach(async () => {
  await current?.dispose();
  await fixture?.kill();
  await model?.close();
  current = undefined;
  fixture = undefined;
  model = undefined;
});

async function hostFor(url: string) {
  current = await createTestHost({ remote: { url } }, { secrets: new MemorySecretStore(), redactor: new Redactor(), openBrowser: recordingBrowser(), connectTimeoutMs: 20_000 });
  return current.host;
}

describe('sign-in status of a remote server', () => {
  it('none before signing in; signed in as whom and until when after; none again after signing out', async () => {
    fixture = await startAuthFixture(['--subject', 'alice@example.com']);
    const host = await hostFor(fixture.mcp);
    await host.servers.startAll();
    expect(host.servers.get('remote').signIn).toEqual({ state: 'none' });

    const before = Date.now();
    const summary = await host.auth.login('remote');
    expect(summary.signIn).toMatchObject({ state: 'signed-in', subject: 'alice@example.com' });
    const expiresAt = summary.signIn!.expiresAt!;
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3_590_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(host.servers.list().find((s) => s.name === 'remote')!.signIn!.state).toBe('signed-in');

    await host.auth.logout('remote');
    expect(host.servers.get('remote').signIn).toEqual({ state: 'none' });
  });

  it('expired once the token lapses with nothing to renew it, saying to sign in again', async () => {
    fixture = await startAuthFixture(['--access-ttl', '2', '--no-refresh-tokens']);
    const host = await hostFor(fixture.mcp);
    expect((await host.auth.login('remote')).signIn!.state).toBe('signed-in');
    await waitFor(() => host.servers.get('remote').signIn?.state === 'expired', 'the sign-in to show as expired');
    expect(host.servers.get('remote').signIn!.message).toContain('Sign in again');
  });

  it("refused, with the authorization server's own message", async () => {
    fixture = await startAuthFixture(['--authorize', 'deny', '--deny-description', 'Your administrator has not approved Harbor']);
    const host = await hostFor(fixture.mcp);
    await expect(host.auth.login('remote')).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
    const signIn = host.servers.get('remote').signIn!;
    expect(signIn.state).toBe('refused');
    expect(signIn.message).toContain('access_denied');
    expect(signIn.message).toContain('Your administrator has not approved Harbor');
  });

  it('a token that expires during a conversation stops the turn with "sign in again", naming the server', async () => {
    fixture = await startAuthFixture(['--access-ttl', '8', '--no-refresh-tokens']);
    model = await startScriptedModel({
      script: [
        { toolCalls: [{ name: 'remote__add', arguments: { a: 2, b: 3 } }] },
        { text: 'It is 5.' },
        { toolCalls: [{ name: 'remote__add', arguments: { a: 4, b: 4 } }] },
        { text: 'should not be reached' },
      ],
    });
    current = await createChatHost(
      { remote: { url: fixture.mcp } },
      { model: model.modelConfig(), host: { secrets: new MemorySecretStore(), redactor: new Redactor(), openBrowser: recordingBrowser(), connectTimeoutMs: 20_000 } },
    );
    const host = current.host;
    await host.auth.login('remote');
    const first = await host.chat.send({ text: 'add 2 and 3', approveOnce: true });
    const firstOutcome = await first.done;
    expect(firstOutcome, JSON.stringify(firstOutcome.error)).toMatchObject({ status: 'completed', text: 'It is 5.' });

    await waitFor(() => host.servers.get('remote').signIn?.state === 'expired', 'the token to expire', 20_000);
    const second = await host.chat.send({ conversationId: first.conversationId, text: 'add 4 and 4', approveOnce: true });
    const outcome = await second.done;
    expect(outcome.status).toBe('error');
    expect(outcome.error).toMatchObject({ code: 'AUTH_REQUIRED' });
    expect(outcome.error!.message).toContain('"remote"');
    expect(outcome.error!.message).toMatch(/sign in again/i);
    // The person sees it in the turn; the model was not asked to carry on without the server.
    const turn = host.chat.open(first.conversationId).turns.at(-1)!;
    expect(turn.error).toMatchObject({ code: 'AUTH_REQUIRED' });
    expect(model.requests).toHaveLength(3);
  });
});
