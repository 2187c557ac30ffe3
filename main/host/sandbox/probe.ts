/**
 * The sandbox probe: one real command (`true`) run inside the sandbox, the proof that this machine
 * can sandbox servers. Bounded by a timeout, and by `signal` (the runtime's dispose): either kills it.
 */
import { spawn } from 'node:child_process';
import type { SandboxManagerApi } from './load-runtime';

const PROBE_TIMEOUT_MS = 15_000;

/** Runs `true` inside the sandbox; undefined when it worked, else what went wrong. */
export async function runProbe(manager: Pick<SandboxManagerApi, 'wrapWithSandboxArgv'>, signal?: AbortSignal): Promise<string | undefined> {
  try {
    const wrapped = await manager.wrapWithSandboxArgv('true', undefined, { filesystem: { allowWrite: [], denyWrite: [], denyRead: [], allowRead: [] } });
    const [command, ...args] = wrapped.argv;
    if (signal?.aborted) return 'Harbor is stopping';
    return await new Promise<string | undefined>((resolve) => {
      const child = spawn(command!, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
      const stop = (reason: string) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        child.kill('SIGKILL');
        resolve(reason);
      };
      const onAbort = () => stop('Harbor is stopping');
      const timer = setTimeout(() => stop(`it did not finish within ${PROBE_TIMEOUT_MS / 1000} s`), PROBE_TIMEOUT_MS);
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = (result: string | undefined) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(result);
      };
      child.once('error', (error) => settle(error.message));
      child.once('exit', (code, exitSignal) => settle(code === 0 ? undefined : stderr.trim() || (exitSignal ? `killed by ${exitSignal}` : `exit code ${code}`)));
    });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
