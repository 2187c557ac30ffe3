import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { SandboxRuntime } from '../../main/host/sandbox/runtime';

/**
 * Why servers cannot be sandboxed on this machine, or undefined when they can: the real check
 * (the platform, bubblewrap/socat/ripgrep or Seatbelt, then one sandboxed command).
 */
export async function sandboxProblem(): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-sandbox-check-'));
  const runtime = new SandboxRuntime({ dataDir: dir });
  try {
    const availability = await runtime.availability();
    return availability.available ? undefined : `${availability.reason}; ${availability.fix}`;
  } finally {
    await runtime.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Locally, tests that need the sandbox skip with the reason in their title (and on stderr) where
 * it truly cannot run (Windows, a machine without bubblewrap). In CI on Linux it must run — .ci/run installs
 * bubblewrap, socat and ripgrep — so its absence there is a failing test, never a silent skip.
 */
export async function requireSandboxInCi(): Promise<string | undefined> {
  const problem = await sandboxProblem();
  if (process.env.CI && process.platform === 'linux' && problem) {
    it('can sandbox servers in CI', () => {
      throw new Error(`The sandbox is required in CI on Linux but cannot run: ${problem}. .ci/run must apt-get install bubblewrap socat ripgrep.`);
    });
  } else if (problem) {
    // The default reporter hides skipped titles: say it once where everyone reads.
    console.warn(`Sandbox tests skipped: ${problem}`);
  }
  return problem;
}
