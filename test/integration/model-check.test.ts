/**
 * Settings › Model › Test connection: one tiny real request through the configured provider (the
 * scripted model, an OpenAI-compatible server on 127.0.0.1), what it reports, and the clear
 * errors when the provider refuses or no model is set.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createChatHost } from '../fixtures/model/chat-host';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';
import { createTestHost, type TestHost } from '../helpers/host';

let current: TestHost | undefined;
let model: ScriptedModel | undefined;
afterEach(async () => {
  await current?.dispose();
  await model?.close();
  current = model = undefined;
});

describe('settings.testModel', () => {
  it('sends one short streamed request without tools and reports the model, time and reply', async () => {
    model = await startScriptedModel({ script: [{ text: ['o', 'k'] }] });
    current = await createChatHost({}, { model: model.modelConfig() });
    const check = await current.host.settings.testModel();
    expect(check).toMatchObject({ model: 'openai-compatible:scripted', reply: 'ok' });
    expect(check.ms).toBeGreaterThanOrEqual(0);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]!.toolNames).toEqual([]);
    expect(model.requests[0]!.body.stream).toBe(true);
  });

  it('says plainly when the provider refuses, with where to fix it', async () => {
    model = await startScriptedModel({ script: [{ error: { status: 401, message: 'Incorrect API key provided' } }] });
    current = await createChatHost({}, { model: model.modelConfig() });
    await expect(current.host.settings.testModel()).rejects.toMatchObject({ code: 'MODEL_ERROR', message: expect.stringMatching(/Incorrect API key provided[\s\S]*Settings › Model/) });
  });

  it('asks for a model first when none is set', async () => {
    current = await createTestHost({});
    await expect(current.host.settings.testModel()).rejects.toMatchObject({ code: 'MODEL_NOT_CONFIGURED', message: expect.stringMatching(/No model is set/) });
  });
});
