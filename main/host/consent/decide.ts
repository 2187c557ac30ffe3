import type { Tool } from '@modelcontextprotocol/client';
import type { ConsentChoice } from '../../../preload/contract';
import type { Standing } from './store';

/** How a call may run without asking ("app-session": an App's session grant, gate.ts). */
export type AllowedVia = 'trusted-read-only' | 'always' | 'once' | 'conversation' | 'setting' | 'app-session';

/** Which recorded definition a changed tool is compared with: an approval, or the pin of what last ran / was approved for a while. */
export type PinKind = 'always' | 'once' | 'pinned';

export type Decision =
  | {
      readonly verdict: 'allow';
      readonly via: AllowedVia;
      /** Running it pins this definition (a first run without asking; a one-shot grant used up). */
      readonly pin: boolean;
    }
  | { readonly verdict: 'deny'; readonly via: 'setting' }
  | {
      readonly verdict: 'ask';
      readonly reason: 'required' | 'stale';
      readonly options: readonly ConsentChoice[];
      /** For "stale": the recorded definition the tool no longer matches. */
      readonly against?: PinKind;
    };

/**
 * What the person decided about one tool of one server (the rows recorded under its identity),
 * as read before a call. `silent` pins the definition that last ran without asking or that the
 * person approved "once" or "for this conversation"; `conversation` lists the fingerprints
 * approved for the conversation the call belongs to.
 */
export interface Approvals extends Standing {
  readonly conversation: readonly string[];
}

/** What the call itself brings: whether its server is trusted (Harbor's registry says so) and whether it is part of a conversation. */
export interface CallFacts {
  readonly trusted: boolean;
  readonly inConversation: boolean;
}

const ALL_CHOICES: readonly ConsentChoice[] = ['once', 'conversation', 'always', 'deny'];
/** A destructive tool is asked about every time: "for this conversation" is not offered. */
const DESTRUCTIVE_CHOICES: readonly ConsentChoice[] = ['once', 'always', 'deny'];

/**
 * The consent decision for one call, as a pure function: no reads, no writes. The tiers
 * (defaults; settings override per server and per tool):
 * - trusted server and readOnlyHint: true → runs without asking;
 * - untrusted server → its annotations are ignored; every call asks;
 * - destructiveHint: true, or absent (the spec's default) → asks every time unless the person
 *   chose "always" for that exact definition;
 * - otherwise → asks, offering once / this conversation / always / deny.
 * Every approval is pinned to the fingerprint of the definition the person saw ("always" and a
 * pending one-shot grant in their rows; "once" and "this conversation" answers in the pin), and
 * so is every tool that runs without asking (pinned the first time it runs). A changed tool is
 * "stale" and asks again, with what changed — whatever the policy. What to record afterwards is
 * the caller's (ConsentPolicy.record): `pin` says a run pins its definition.
 */
export function decide(tool: Tool, fingerprint: string, call: CallFacts, approvals: Approvals): Decision {
  const setting = approvals.override;
  if (setting === 'deny') return { verdict: 'deny', via: 'setting' };
  const ask = (reason: 'required' | 'stale', against?: PinKind): Decision => ({ verdict: 'ask', reason, options: optionsFor(tool, call), ...(against ? { against } : {}) });

  for (const kind of ['always', 'once'] as const) {
    const pinned = approvals[kind];
    if (pinned === undefined) continue;
    if (pinned === fingerprint) return { verdict: 'allow', via: kind, pin: kind === 'once' };
    return ask('stale', kind);
  }
  const conversation = call.inConversation && approvals.conversation.includes(fingerprint);
  const silently: AllowedVia | undefined = setting === 'allow' ? 'setting' : setting !== 'ask' && call.trusted && tool.annotations?.readOnlyHint === true ? 'trusted-read-only' : undefined;
  // The first run without asking pins what ran: from now on a change asks (a rug pull).
  if (silently && approvals.silent === undefined) return { verdict: 'allow', via: silently, pin: true };
  if (silently && approvals.silent === fingerprint) return { verdict: 'allow', via: silently, pin: false };
  if (conversation) return { verdict: 'allow', via: 'conversation', pin: false };
  // What the person approved for a while (or what ran silently) changed: ask with the diff.
  if (approvals.silent !== undefined && approvals.silent !== fingerprint) return ask('stale', 'pinned');
  return ask('required');
}

/** Untrusted servers' annotations are ignored: their tools count as possibly destructive. */
function optionsFor(tool: Tool, call: CallFacts): readonly ConsentChoice[] {
  const annotations = call.trusted ? tool.annotations : undefined;
  const destructive = annotations?.readOnlyHint !== true && annotations?.destructiveHint !== false;
  const choices = call.trusted && destructive ? DESTRUCTIVE_CHOICES : ALL_CHOICES;
  // A call outside a conversation (a tool run by hand) has no conversation to remember it for.
  return call.inConversation ? choices : choices.filter((c) => c !== 'conversation');
}
