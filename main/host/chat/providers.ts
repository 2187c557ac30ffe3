import type { LanguageModel } from 'ai';
import { HarborError } from '../errors';
import type { ModelConfig } from '../registry/schema';

/** Reads a secret by name from the keychain; undefined when it is not set. */
export type SecretResolver = (name: string) => Promise<string | undefined>;

export interface ResolvedModel {
  readonly model: LanguageModel;
  /** "anthropic:claude-…", for the conversation record. */
  readonly label: string;
  readonly imagesInToolResults: boolean;
  /** Whether the person may attach images for this model. */
  readonly takesImages: boolean;
  readonly maxRetries: number;
}

/** Model names of well-known open vision models served by Ollama, LM Studio, vLLM and the like. */
const OPEN_VISION_MODEL = /vision|llava|bakllava|pixtral|moondream|minicpm-v|gemma-?3|qwen[\d.]*-?vl|-vl\b|internvl|gpt-4o|gpt-4\.1|gpt-5|claude/i;

/**
 * Whether the model takes images in the person's messages: the registry's "vision" when set, else
 * Anthropic's and OpenAI's models yes, and an OpenAI-compatible model when its name says so.
 */
export function modelTakesImages(config: ModelConfig): boolean {
  if (config.vision !== undefined) return config.vision;
  return config.provider === 'openai-compatible' ? OPEN_VISION_MODEL.test(config.model) : true;
}

const SECRET_REF = /^\$\{secret:([^}]+)\}$/;

async function resolveApiKey(config: ModelConfig, resolveSecret: SecretResolver | undefined): Promise<string | undefined> {
  const raw = config.apiKey;
  if (raw === undefined || raw === '') return undefined;
  const ref = SECRET_REF.exec(raw);
  if (!ref) return raw;
  const name = ref[1]!;
  if (!resolveSecret) {
    throw new HarborError(
      'MODEL_NOT_CONFIGURED',
      `The model's API key is the secret "${name}", but this Harbor cannot read secrets. Set the provider's key in its environment variable instead (e.g. ANTHROPIC_API_KEY or OPENAI_API_KEY) and remove "apiKey".`,
    );
  }
  const value = await resolveSecret(name);
  if (value === undefined) {
    throw new HarborError('MODEL_NOT_CONFIGURED', `The model's API key "\${secret:${name}}" is not set. Run "harbor secret set ${name}" and try again.`);
  }
  return value;
}

/**
 * Builds the AI SDK model for the registry's "model" entry. The provider packages are loaded on
 * first use (CLI commands that never chat do not pay for them).
 */
export async function createLanguageModel(config: ModelConfig, resolveSecret?: SecretResolver): Promise<ResolvedModel> {
  const apiKey = await resolveApiKey(config, resolveSecret);
  const common = { label: `${config.provider}:${config.model}`, maxRetries: config.maxRetries ?? 2, takesImages: modelTakesImages(config) };
  switch (config.provider) {
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      const provider = createAnthropic({ ...(apiKey ? { apiKey } : {}), ...(config.baseURL ? { baseURL: config.baseURL } : {}) });
      return { ...common, model: provider(config.model), imagesInToolResults: config.imagesInToolResults ?? true };
    }
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      const provider = createOpenAI({ ...(apiKey ? { apiKey } : {}), ...(config.baseURL ? { baseURL: config.baseURL } : {}) });
      return { ...common, model: provider(config.model), imagesInToolResults: config.imagesInToolResults ?? true };
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      const provider = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: config.baseURL!,
        ...(apiKey ? { apiKey } : {}),
        includeUsage: true,
      });
      return { ...common, model: provider.chatModel(config.model), imagesInToolResults: config.imagesInToolResults ?? false };
    }
  }
}
