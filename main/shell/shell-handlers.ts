/**
 * The desktop app's commands on top of the Host's (main/contract-handlers.ts): self-update. The
 * consent questions the shell raises itself (harbor:// links) are asked through the Host's one
 * consent queue, so the Host's `consent.pending` / `consent.respond` list and answer them.
 */
import type { CommandHandlers } from '../dispatch';
import type { UpdateService } from './updates';

export function withShellCommands(base: CommandHandlers, shell: { readonly updates: Pick<UpdateService, 'handlers'> }): CommandHandlers {
  return { ...base, ...shell.updates.handlers() };
}
