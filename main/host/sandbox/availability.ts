/**
 * Whether this machine can run a server inside the sandbox, and if not, why and what to do. A
 * server that asks for the sandbox never silently runs without it: where the sandbox cannot run,
 * it refuses to start with the reason below, and the person may turn the sandbox off for that
 * one server.
 */
import { HarborError } from '../errors';

export type SandboxMechanism = 'bubblewrap' | 'seatbelt';

export type SandboxAvailability =
  | { readonly available: true; readonly mechanism: SandboxMechanism }
  | { readonly available: false; readonly reason: string; readonly fix: string };

/** The mechanism the runtime uses on a platform, or undefined where Harbor cannot sandbox. */
export function mechanismFor(platform: NodeJS.Platform): SandboxMechanism | undefined {
  if (platform === 'linux') return 'bubblewrap';
  if (platform === 'darwin') return 'seatbelt';
  return undefined;
}

/** Where the platform itself has no sandbox Harbor can use. */
export function unsupportedPlatform(platform: NodeJS.Platform): SandboxAvailability | undefined {
  if (mechanismFor(platform)) return undefined;
  if (platform === 'win32') {
    return {
      available: false,
      reason: 'Harbor cannot sandbox servers on Windows: the sandbox runtime supports Windows only as an alpha that needs a machine-wide install as administrator, which Harbor does not drive',
      fix: 'servers run unsandboxed here',
    };
  }
  return { available: false, reason: `Harbor cannot sandbox servers on ${platform}`, fix: 'servers run unsandboxed here' };
}

/** The runtime's list of missing dependencies → the reason and the install command. */
export function missingDependencies(errors: readonly string[], platform: NodeJS.Platform): SandboxAvailability {
  const fix =
    platform === 'darwin'
      ? 'install ripgrep (brew install ripgrep), then start the server again'
      : 'install bubblewrap, socat and ripgrep (Debian and Ubuntu: sudo apt-get install bubblewrap socat ripgrep; Fedora: sudo dnf install bubblewrap socat ripgrep), then start the server again';
  return { available: false, reason: `the sandbox is missing what it needs here: ${errors.join('; ')}`, fix };
}

/** The sandbox could be set up but a sandboxed command could not run (no user namespaces, …). */
export function probeFailed(detail: string, platform: NodeJS.Platform): SandboxAvailability {
  const fix =
    platform === 'linux'
      ? 'allow unprivileged user namespaces for bubblewrap (e.g. sudo sysctl -w kernel.unprivileged_userns_clone=1, or on Ubuntu 24.04 and later kernel.apparmor_restrict_unprivileged_userns=0), then start the server again'
      : 'check that sandbox-exec works on this Mac, then start the server again';
  return { available: false, reason: `a sandboxed test command failed here: ${detail}`, fix };
}

/** The error a sandboxed server's start fails with where the sandbox cannot run. */
export function sandboxUnavailableError(server: string, availability: Extract<SandboxAvailability, { available: false }>): HarborError {
  return new HarborError(
    'SANDBOX_UNAVAILABLE',
    `Server "${server}" runs in a sandbox, and the sandbox cannot run here: ${availability.reason}. To fix it, ${availability.fix}. To run this server without the sandbox instead, turn its sandbox off (the server editor's Sandbox section, or "sandbox": false in the registry).`,
    availability.reason,
  );
}
