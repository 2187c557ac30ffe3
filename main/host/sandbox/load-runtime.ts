/**
 * @anthropic-ai/sandbox-runtime takes about half a second to import: loaded the first time a
 * sandboxed server starts (or the app asks what the sandbox can do), never at Harbor's start.
 */
import type * as Runtime from '@anthropic-ai/sandbox-runtime';

type RuntimeModule = typeof Runtime;

let loading: Promise<RuntimeModule> | undefined;

export function loadSandboxRuntime(): Promise<RuntimeModule> {
  loading ??= import('@anthropic-ai/sandbox-runtime').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

export type SandboxManagerApi = RuntimeModule['SandboxManager'];
