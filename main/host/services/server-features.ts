import { resolveRoots } from '../registry/roots';
import type { ServerConfig } from '../registry/schema';
import { samplingCandidates } from '../sampling/model-choice';
import { DEFAULT_SAMPLING_PER_MINUTE } from '../sampling/rate-limit';
import type { Sampler, SamplingSettings } from '../sampling/sampler';
import { declaredFeaturesOf, type ServerFeatures } from '../servers/client-features';
import type { LogBook } from './log-book';
import type { RegistryState } from './registry-state';

export interface ServerFeatureDeps {
  readonly registry: RegistryState;
  readonly sampler: Sampler;
  readonly logs: LogBook;
}

/**
 * What Harbor offers one server beyond tools, read from its registry entry whenever it is needed:
 * roots (only when it has some), sampling (unless "deny") through the sampler, and its log
 * messages into the log book with the level the person chose.
 */
export function serverFeatures(server: string, deps: ServerFeatureDeps): ServerFeatures {
  const config = (): Partial<ServerConfig> => deps.registry.server(server) ?? {};
  return {
    declared: () => declaredFeaturesOf(config()),
    listRoots: () => resolveRoots(config().roots).map(({ uri, name }) => ({ uri, name })),
    sample: (params, context) =>
      deps.sampler.sample(server, params, {
        signal: context.signal,
        ...(context.request?.origin ? { origin: context.request.origin } : {}),
        ...(context.request ? { during: context.request.action } : {}),
      }),
    logged: (message) => deps.logs.record(server, message),
    logLevel: () => config().logLevel,
  };
}

/** One server's sampling settings: its policy, its models (then the registry's), its rate limit. */
export function samplingSettings(registry: RegistryState, server: string): SamplingSettings {
  const config = registry.server(server);
  return {
    policy: config?.sampling ?? 'ask',
    candidates: samplingCandidates(config?.samplingModel, registry.file?.model),
    perMinute: config?.samplingPerMinute ?? DEFAULT_SAMPLING_PER_MINUTE,
  };
}
