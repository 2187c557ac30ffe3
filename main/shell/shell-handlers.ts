/**
 * The desktop app's commands on top of the Host's (main/contract-handlers.ts): self-update, and consent
 * requests raised by the shell itself (harbor:// links) answered through the same
 * `consent.pending` / `consent.respond` the renderer's dialog already uses.
 */
import type { CommandHandlers } from '../dispatch';
import type { Host } from '../host/host';
import type { AddServerConsent } from './add-server-consent';
import type { UpdateService } from './updates';

export function withShellCommands(
  base: CommandHandlers,
  shell: {
    readonly links: Pick<AddServerConsent, 'owns' | 'respond' | 'pendingRequests'>;
    readonly updates: Pick<UpdateService, 'handlers'>;
    /** The Host's shell door: the links' questions leave through it, cleaned like the gate's. */
    readonly door: Pick<Host['shell'], 'consentRequests'>;
  },
): CommandHandlers {
  return {
    ...base,
    ...shell.updates.handlers(),
    'consent.pending': async (request) => [...(await base['consent.pending'](request)), ...shell.door.consentRequests(shell.links.pendingRequests())],
    'consent.respond': async (request) =>
      shell.links.owns(request.id) ? { accepted: shell.links.respond(request.id, request.decision) } : base['consent.respond'](request),
  };
}
