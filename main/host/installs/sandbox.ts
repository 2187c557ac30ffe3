/**
 * What the installers say about the sandbox, in one place. Installed stdio servers get
 * `"sandbox": true` when the "installs.sandbox" setting is on; running them inside it is the
 * sandbox's own work (servers/), which this Harbor does not do yet — so every review says plainly
 * whether the server will actually be contained. When the sandbox lands, SANDBOX_ENFORCED (or a
 * per-platform check in its place) is the one switch to change.
 */
export const SANDBOX_ENFORCED = false;

export interface SandboxView {
  /** The registry entry asks for the sandbox. */
  readonly requested: boolean;
  /** This Harbor, on this platform, runs the server inside it. */
  readonly enforced: boolean;
  /** What the server may do, one line each, as the person reads it. */
  readonly allowed: string[];
}

const CONTAINED = [
  'write only to its own temporary folder',
  'no network access',
  "no reading of Harbor's data, ~/.ssh, ~/.aws, ~/.gnupg or the keychain's files",
];
const UNCONTAINED = ['read and write every file you can', 'reach any address on the network', 'start other programs as you'];

/** The sandbox as a review shows it; a remote server (nothing runs here) is not asked about. */
export function sandboxView(requested: boolean): SandboxView {
  if (requested && SANDBOX_ENFORCED) return { requested, enforced: true, allowed: CONTAINED };
  return {
    requested,
    enforced: false,
    allowed: requested ? [...UNCONTAINED, 'sandbox requested ("sandbox": true), but this version of Harbor does not enforce it yet: the server runs with your rights'] : UNCONTAINED,
  };
}
