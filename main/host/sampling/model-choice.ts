import type { ModelPreferences } from '@modelcontextprotocol/client';
import type { ModelConfig } from '../registry/schema';

/**
 * The models a server's sampling may use, in order of preference: its own "samplingModel" (one
 * or several), then the registry's "model". The same model named twice counts once.
 */
export function samplingCandidates(samplingModel: ModelConfig | readonly ModelConfig[] | undefined, registryModel: ModelConfig | undefined): ModelConfig[] {
  const own = samplingModel === undefined ? [] : Array.isArray(samplingModel) ? samplingModel : [samplingModel as ModelConfig];
  const all = [...own, ...(registryModel ? [registryModel] : [])];
  const seen = new Set<string>();
  return all.filter((model) => {
    const key = JSON.stringify([model.provider, model.model, model.baseURL ?? '']);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** "anthropic:claude-…", as the conversation records and the person sees a model. */
export function modelLabel(model: ModelConfig): string {
  return `${model.provider}:${model.model}`;
}

/**
 * The model for one sampling request. The server's hints are advisory names, tried in its order:
 * the first candidate whose model name contains a hint (ignoring case; the spec's "substring"
 * match, so "sonnet" finds "claude-sonnet-4") wins. With no hint matching — or none given, or a
 * single candidate — the first candidate is used. The cost/speed/intelligence priorities cannot
 * be judged from a config file, so they do not change the choice.
 */
export function chooseModel(candidates: readonly ModelConfig[], preferences: ModelPreferences | undefined): ModelConfig | undefined {
  if (candidates.length <= 1) return candidates[0];
  for (const hint of preferences?.hints ?? []) {
    const name = typeof hint?.name === 'string' ? hint.name.trim().toLowerCase() : '';
    if (!name) continue;
    const match = candidates.find((model) => model.model.toLowerCase().includes(name) || modelLabel(model).toLowerCase() === name);
    if (match) return match;
  }
  return candidates[0];
}
