import type { SandboxRefusalData } from '../../../preload/contract';

const WHAT: Record<SandboxRefusalData['kind'], string> = { write: 'writing to', read: 'reading', network: 'a connection to' };

/**
 * One refusal as Harbor's log and the CLI say it: what was refused and the registry rule that
 * would allow it ("refused writing to /srv/x — to allow it, in its harbor.json entry:
 * "sandbox": { "allowWrite": ["/srv"] }"), or why nothing can.
 */
export function refusalLine(refusal: SandboxRefusalData): string {
  const what = `refused ${WHAT[refusal.kind]} ${refusal.target}`;
  if (refusal.suggestion) return `${what} — to allow it, in its harbor.json entry: ${refusal.suggestion.rule} (or "${refusal.suggestion.label}" on its card)`;
  return `${what} — ${refusal.kind === 'read' ? 'always hidden from sandboxed servers' : 'no rule allows it'}`;
}
