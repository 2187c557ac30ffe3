import type { ModelConfig } from '../registry/schema';
import { HarborError } from '../errors';
import { streamModelStep } from './model-step';
import { createLanguageModel, type SecretResolver } from './providers';

/** What a connection test found: which model answered, how fast, and the start of its reply. */
export interface ModelCheck {
  readonly model: string;
  readonly ms: number;
  readonly reply: string;
}

const CHECK_TIMEOUT_MS = 30_000;

/**
 * One tiny real request through the configured provider, the way the chat sends them (streamed,
 * no tools): it proves the address, the key and the model name together. Nothing is stored.
 */
export async function checkModelConnection(config: ModelConfig, resolveSecret: SecretResolver | undefined, timeoutMs = CHECK_TIMEOUT_MS): Promise<ModelCheck> {
  const resolved = await createLanguageModel(config, resolveSecret);
  const started = performance.now();
  const step = await streamModelStep({
    model: resolved.model,
    system: 'This is a connection test from Harbor. Answer briefly.',
    messages: [{ role: 'user', content: 'Reply with the single word: ok' }],
    tools: [],
    signal: AbortSignal.timeout(timeoutMs),
    maxRetries: 0,
    onText: () => undefined,
  });
  if (step.aborted) {
    throw new HarborError('MODEL_ERROR', `The model did not answer within ${Math.round(timeoutMs / 1000)} seconds. Check that the provider's address is reachable from this computer.`);
  }
  return { model: resolved.label, ms: Math.round(performance.now() - started), reply: step.text.trim().slice(0, 200) };
}
