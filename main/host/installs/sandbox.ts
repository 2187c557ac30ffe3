import { sandboxForInstalledServer, sandboxRules, type SandboxConfig } from '../registry/sandbox-config';

/**
 * What the installers write and say about the sandbox, in one place. Whether a new server gets
 * `"sandbox"` is the sandbox's decision (services/sandbox-service.ts `sandboxForInstalls`: the
 * "sandbox installed servers" setting is on and this machine can run the sandbox); its rules are
 * the sandbox's too (registry/sandbox-config.ts `sandboxForInstalledServer`). Every review says
 * truthfully whether the server will run inside it, and if not, why.
 */

/** The sandbox's answers the installers need (implemented by the sandbox service). */
export interface InstallSandboxPort {
  /** True when servers installed now get `"sandbox"`: the setting is on and this machine can run it. */
  sandboxForInstalls(): Promise<boolean>;
  /** The setting, and whether (and if not, why) this machine can run the sandbox. */
  status(): Promise<{ readonly available: boolean; readonly reason?: string; readonly fix?: string; readonly sandboxInstalled: boolean }>;
}

export type InstallSandboxStatus = Awaited<ReturnType<InstallSandboxPort['status']>>;

export interface SandboxView {
  /** The registry entry asks for the sandbox. */
  readonly requested: boolean;
  /** The server will run inside it on this machine. */
  readonly enforced: boolean;
  /** What the server may do, one line each, as the person reads it. */
  readonly allowed: string[];
  /** Why it is not sandboxed, or why it will not start, when that needs saying. */
  readonly note?: string;
}

/** Runs its server in a container: Harbor's sandbox would only cut the Docker client off from its daemon. */
const CONTAINER_RUNNERS = /^(?:docker|podman)(?:\.exe)?$/i;

function programOf(command: string): string {
  return command.split(/[\\/]/).pop()!;
}

/** True when the command line runs a container (docker, podman). */
export function runsContainer(command: string): boolean {
  return CONTAINER_RUNNERS.test(programOf(command));
}

/**
 * The `"sandbox"` a new local server gets when `sandboxForInstalls` said yes, or undefined. A
 * container runner (`docker run …`) gets none: the container is its isolation, and the sandbox
 * blocks the Docker socket (allowing that socket would hand the server the whole machine).
 */
export function sandboxForInstall(command: string, sandboxInstalls: boolean): SandboxConfig | undefined {
  if (!sandboxInstalls || runsContainer(command)) return undefined;
  return sandboxForInstalledServer(command);
}

const UNCONTAINED = ['read and write every file you can', 'reach any address on the network', 'start other programs as you'];
const HIDDEN = "no reading of Harbor's data, ~/.ssh, ~/.aws, ~/.gnupg or the keychain's files";

/** What a server with these rules may do, as the person reads it. */
function containedLines(sandbox: SandboxConfig): string[] {
  const rules = sandboxRules(sandbox) ?? {};
  const writes = rules.allowWrite?.length ? `write only to its own temporary folder and ${rules.allowWrite.join(', ')}` : 'write only to its own temporary folder';
  const network = rules.allowedDomains?.length ? `connect only to ${rules.allowedDomains.join(', ')}` : 'no network access';
  const hidden = rules.denyRead?.length ? `${HIDDEN}, nor of ${rules.denyRead.join(', ')}` : HIDDEN;
  return [writes, network, hidden];
}

/**
 * The sandbox as a review shows it, for the entry's `"sandbox"` field (undefined: none) on this
 * machine. `container`: the command runs a container (no sandbox by design).
 */
export function sandboxView(sandbox: SandboxConfig | undefined, status: InstallSandboxStatus, context: { readonly container?: boolean; readonly updating?: boolean } = {}): SandboxView {
  const requested = sandboxRules(sandbox) !== undefined;
  if (requested && status.available) return { requested, enforced: true, allowed: containedLines(sandbox!) };
  if (requested) {
    return {
      requested,
      enforced: false,
      allowed: containedLines(sandbox!),
      note: `The sandbox cannot run on this machine (${status.reason ?? 'unavailable'}): the server will refuse to start until you ${status.fix ?? 'fix that'}, or turn its sandbox off.`,
    };
  }
  return { requested, enforced: false, allowed: UNCONTAINED, note: whyUnsandboxed(status, context) };
}

function whyUnsandboxed(status: InstallSandboxStatus, context: { readonly container?: boolean; readonly updating?: boolean }): string {
  if (context.container) return "Not sandboxed: it runs in a container, which is its isolation (Harbor's sandbox would cut the container tool off from its daemon).";
  if (context.updating) return 'Not sandboxed: its sandbox is off, and an update keeps that (the server editor’s Sandbox section turns it on).';
  if (!status.sandboxInstalled) return 'Not sandboxed: the setting "Sandbox servers installed from bundles and the gallery" is off.';
  if (!status.available) return `Not sandboxed: this machine cannot run the sandbox (${status.reason ?? 'unavailable'}).`;
  return 'Not sandboxed.';
}
