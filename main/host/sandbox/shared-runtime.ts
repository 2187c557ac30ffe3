/**
 * @anthropic-ai/sandbox-runtime keeps one SandboxManager per process: one filtering proxy, one
 * violation monitor, one configuration. Every Host in the process (tests build many) shares it:
 * the first lease initializes it, the last one to be released resets it. Its base configuration
 * allows nothing — no domain, no write — and each server's own rules travel with its wrap
 * (filesystem) and with a network allow list registered under the wrap's id.
 *
 * Violations the runtime records (a write outside the allowed folders, a refused connection) are
 * attributed to a wrap's id and handed to the listener registered for it.
 */
import type { SandboxRuntimeConfig, SandboxViolationEvent } from '@anthropic-ai/sandbox-runtime';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { loadSandboxRuntime, type SandboxManagerApi } from './load-runtime';

export type ViolationListener = (line: string) => void;

export interface SharedRuntimeLease {
  /** The process's SandboxManager. */
  readonly manager: SandboxManagerApi;
  /** Routes the violations attributed to `commandId` to `listener` until the returned function is called. */
  listen(commandId: string, listener: ViolationListener): () => void;
  release(): Promise<void>;
}

let leases = 0;
/** Initializing, or initialized: settles once the manager can wrap commands. */
let ready: Promise<void> | undefined;
/** The last reset, which a new initialize waits for. */
let resetting: Promise<void> = Promise.resolve();
let unsubscribe: (() => void) | undefined;
const listeners = new Map<string, ViolationListener>();
const seen = new WeakSet<SandboxViolationEvent>();

/** Takes a lease on the process's sandbox runtime, initializing it if this is the first. Throws what initialize threw. */
export async function leaseSharedRuntime(): Promise<SharedRuntimeLease> {
  leases += 1;
  let released = false;
  const { SandboxManager } = await loadSandboxRuntime().catch((error: unknown) => {
    leases -= 1;
    throw error;
  });
  const lease: SharedRuntimeLease = {
    manager: SandboxManager,
    listen(commandId, listener) {
      listeners.set(commandId, listener);
      return () => {
        if (listeners.get(commandId) === listener) listeners.delete(commandId);
      };
    },
    async release() {
      if (released) return;
      released = true;
      leases -= 1;
      if (leases > 0) return;
      const initialized = ready;
      ready = undefined;
      resetting = (async () => {
        await initialized?.catch(() => undefined); // its failure went to the lease that awaited it; here we only wait before resetting
        unsubscribe?.();
        unsubscribe = undefined;
        listeners.clear();
        await SandboxManager.reset();
      })();
      await resetting;
    },
  };
  try {
    ready ??= initialize(SandboxManager);
    await ready;
  } catch (error) {
    // A failed initialize is not kept: the next lease tries again (a dependency installed since).
    ready = undefined;
    await lease.release();
    throw error;
  }
  return lease;
}

async function initialize(SandboxManager: SandboxManagerApi): Promise<void> {
  await resetting.catch(() => undefined); // a reset that failed leaves nothing to wait for: initialize() starts afresh
  await SandboxManager.initialize(baseConfig(), undefined, true);
  const store = SandboxManager.getSandboxViolationStore();
  unsubscribe = store.subscribe((violations) => {
    for (const violation of violations) {
      if (seen.has(violation)) continue;
      seen.add(violation);
      const listener = violation.command === undefined ? undefined : listeners.get(violation.command);
      listener?.(violation.line);
    }
  });
}

/** Nothing allowed: every server's rules come with its own wrap. */
function baseConfig(): SandboxRuntimeConfig {
  return {
    network: { allowedDomains: [], deniedDomains: [] },
    filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
    ...packagedHelpers(),
  };
}

/**
 * Inside a packaged app the runtime's helper binaries are unpacked beside app.asar (see
 * electron-builder.yml's asarUnpack): nothing can execute a file inside the archive.
 */
function packagedHelpers(): Partial<SandboxRuntimeConfig> {
  let root: string;
  try {
    root = dirname(createRequire(import.meta.url).resolve('@anthropic-ai/sandbox-runtime/package.json'));
  } catch {
    return {};
  }
  const inArchive = `${sep}app.asar${sep}`;
  if (!root.includes(inArchive)) return {};
  const unpacked = root.replace(inArchive, `${sep}app.asar.unpacked${sep}`);
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const applyPath = join(unpacked, 'vendor', 'seccomp', arch, 'apply-seccomp');
  const jar = join(unpacked, 'vendor', 'java-proxy-agent', 'srt-proxy-agent.jar');
  return {
    ...(existsSync(applyPath) ? { seccomp: { applyPath } } : {}),
    ...(existsSync(jar) ? { javaAgentJarPath: jar } : {}),
  };
}
