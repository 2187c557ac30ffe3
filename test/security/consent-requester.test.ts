/**
 * Attack: an App calls a tool by itself (e.g. delete_everything right after it loads) and the
 * consent dialog tells the person "You are running this tool by hand". Every consent request for a
 * tool call carries who asks — the person, the model in a conversation, a script the model wrote,
 * an App (its server, the tool whose result it shows) — set where the call enters the Host.
 * Real Host, real servers (the Apps probe fixture, the legacy fixture), the scripted model.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentRequest } from '../../preload/contract';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { createTestHost, FIXTURES, NODE, type TestHost } from '../helpers/host';
import { createChatHost } from '../fixtures/model/chat-host';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';

const PROBE = join(FIXTURES, 'apps/probe-app-server.mjs');
const LEGACY = join(FIXTURES, 'legacy/legacy-stdio.mjs');

let test: TestHost | undefined;
let model: ScriptedModel | undefined;
afterEach(async () => {
  await test?.dispose();
  await model?.close();
  test = undefined;
  model = undefined;
});

/** Answers every consent request with "once" and keeps it. */
function answered(t: TestHost): ConsentRequest[] {
  const seen: ConsentRequest[] = [];
  disposeAfterTest(
    t.host.events.onEvent('consent.request', (r) => {
      seen.push(r);
      t.host.consent.respond(r.id, 'once');
    }),
  );
  return seen;
}

describe('the consent request says who asks', () => {
  it("an App's own call is the App's, naming its server and the tool whose result it shows — never the person's", async () => {
    test = await createTestHost({ probe: { command: NODE, args: [PROBE] } }, { interactiveConsent: true });
    disposeAfterTest(test.host.apps.attachSandbox({ urlFor: (id) => `test-sandbox://apps/${id}` }));
    const requests = answered(test);
    const view = await test.host.apps.open({ server: 'probe', tool: 'show_probe' });
    await test.host.apps.callTool(view.instanceId, 'app_only', {});
    expect(requests).toHaveLength(1);
    expect(requests[0]!.requester).toEqual({ kind: 'app', server: 'probe', tool: 'show_probe', uri: 'ui://probe/app.html', instanceId: view.instanceId });
  });

  it('a call by hand is the person’s', async () => {
    test = await createTestHost({ s: { command: NODE, args: [LEGACY] } }, { interactiveConsent: true });
    const requests = answered(test);
    await test.host.calls.callTool('s', 'echo', { text: 'a' });
    expect(requests[0]!.requester).toEqual({ kind: 'person' });
  });

  it("the model's call is the model's, in its conversation; a script's is code mode's", async () => {
    model = await startScriptedModel({
      script: [
        { toolCalls: [{ name: 's__echo', arguments: { text: 'from the model' } }] },
        { toolCalls: [{ name: 'run_code', arguments: { code: 'return await tools.s.echo({ text: "from a script" });' } }] },
        { text: 'done' },
      ],
    });
    test = await createChatHost({ s: { command: NODE, args: [LEGACY] } }, { model: model.modelConfig(), chat: { codeMode: 'auto', toolSearch: 'off' }, host: { interactiveConsent: true } });
    const requests = answered(test);
    const turn = await test.host.chat.send({ text: 'go' });
    const outcome = await turn.done;
    expect(outcome).toMatchObject({ status: 'completed' });
    expect(requests.map((r) => [r.requester?.kind, r.arguments?.text])).toEqual([
      ['model', 'from the model'],
      ['code', 'from a script'],
    ]);
    expect(requests.every((r) => r.requester && 'conversationId' in r.requester && r.requester.conversationId === outcome.conversationId)).toBe(true);
  });
});
