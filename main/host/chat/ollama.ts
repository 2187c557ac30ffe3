import type { ModelConfig } from '../registry/schema';

export const DEFAULT_OLLAMA_URL = 'http://127.0.0.1:11434';

export interface OllamaOffer {
  readonly url: string;
  readonly models: readonly string[];
  /** What to put under "model" in the registry to use it. */
  readonly config: ModelConfig;
}

/**
 * Looks for a local Ollama (one quick GET of /api/tags with a short timeout). Returns what it
 * offers, or undefined when nothing answers like Ollama. Never throws.
 */
export async function detectOllama(url = DEFAULT_OLLAMA_URL, timeoutMs = 500): Promise<OllamaOffer | undefined> {
  const base = url.replace(/\/+$/, '');
  try {
    const response = await fetch(`${base}/api/tags`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { models?: unknown };
    if (!Array.isArray(body.models)) return undefined;
    const models = body.models
      .map((m) => (m && typeof m === 'object' ? (m as { name?: unknown; model?: unknown }).name ?? (m as { model?: unknown }).model : undefined))
      .filter((n): n is string => typeof n === 'string' && n.length > 0);
    return {
      url: base,
      models,
      config: { provider: 'openai-compatible', baseURL: `${base}/v1`, model: models[0] ?? 'llama3.2' },
    };
  } catch {
    return undefined;
  }
}

/** OLLAMA_HOST as Ollama itself reads it ("127.0.0.1:11434" or a URL), else the default. */
export function ollamaUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  const host = env.OLLAMA_HOST?.trim();
  if (!host) return DEFAULT_OLLAMA_URL;
  return /^https?:\/\//.test(host) ? host : `http://${host}`;
}
