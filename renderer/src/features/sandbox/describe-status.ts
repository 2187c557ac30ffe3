import type { SandboxStatusData } from '../../../../preload/contract';

/** How this machine sandboxes servers, in one sentence. */
export function describeSandboxStatus(status: SandboxStatusData): string {
  if (status.available) {
    return status.mechanism === 'seatbelt'
      ? 'This Mac runs sandboxed servers under Seatbelt (sandbox-exec), with their network through a filtering proxy.'
      : 'This machine runs sandboxed servers inside bubblewrap, with a network of their own that reaches only the allowed hosts through a filtering proxy.';
  }
  return `This machine cannot run the sandbox: ${status.reason ?? 'unknown reason'}. ${capitalize(status.fix ?? '')}.`;
}

function capitalize(text: string): string {
  return text ? `${text[0]!.toUpperCase()}${text.slice(1)}` : text;
}
