import { homedir } from 'node:os';
import type { SandboxChangeData, SandboxRefusalData, SandboxStatusData, ServerSummary } from '../../../preload/contract';
import { HarborError } from '../errors';
import { sandboxInstalledServers } from '../registry/sandbox-config';
import { isStdio } from '../registry/schema';
import type { RefusalBook } from '../sandbox/refusal-book';
import { withSandboxChange } from '../sandbox/rules-edit';
import type { SandboxRuntime } from '../sandbox/runtime';
import type { RegistryEditing } from './registry-editing';
import type { RegistryState } from './registry-state';

/**
 * The sandbox as the app sees it: what this machine offers, what the sandbox refused each server
 * and the one-click change that allows it, and the "sandbox installed servers" setting (the
 * registry's top-level "installs": {"sandbox": …}).
 */
export class SandboxService {
  constructor(
    private readonly runtime: Pick<SandboxRuntime, 'availability'>,
    /** Filled by the launch path (each refusal), announced as `sandbox.refused`. */
    private readonly book: RefusalBook,
    private readonly registry: RegistryState,
    private readonly editing: RegistryEditing,
    private readonly home: string = homedir(),
  ) {}

  async status(): Promise<SandboxStatusData> {
    const availability = await this.runtime.availability();
    return {
      platform: process.platform,
      available: availability.available,
      ...(availability.available ? { mechanism: availability.mechanism } : { reason: availability.reason, fix: availability.fix }),
      sandboxInstalled: sandboxInstalledServers(this.registry.file?.installs),
    };
  }

  /**
   * Whether a server installed now gets `"sandbox"`: the setting is on and this machine can
   * enforce it (where it cannot, the server would only refuse to start). For the installers.
   */
  async sandboxForInstalls(): Promise<boolean> {
    if (!sandboxInstalledServers(this.registry.file?.installs)) return false;
    return (await this.runtime.availability()).available;
  }

  refusals(server?: string): SandboxRefusalData[] {
    return this.book.list(server);
  }

  /** Applies a suggested change; the server restarts with its new rules if it was running. */
  async allow(server: string, change: SandboxChangeData): Promise<ServerSummary> {
    const config = this.registry.requireValid().servers.get(server);
    if (!config) throw new HarborError('SERVER_NOT_FOUND', `No server named "${server}".`);
    if (!isStdio(config)) throw new HarborError('BAD_REQUEST', `Server "${server}" is a remote server: it does not run in a sandbox here.`);
    withSandboxChange(server, config.sandbox, change, this.home); // checked before anything is written
    const summary = await this.editing.update(server, (current) => ({ ...current, sandbox: withSandboxChange(server, isStdio(current) ? current.sandbox : undefined, change, this.home) }));
    this.book.settle(server, change);
    return summary;
  }

  async setInstallDefault(sandbox: boolean): Promise<SandboxStatusData> {
    this.registry.requireValid();
    await this.editing.edit((file) => ({ ...file, installs: { ...(file.installs ?? {}), sandbox } }));
    return this.status();
  }
}
