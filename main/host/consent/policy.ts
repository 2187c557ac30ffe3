import type { Tool } from '@modelcontextprotocol/client';
import type { ConsentChoice } from '../../../preload/contract';
import { decide, type Approvals, type Decision, type PinKind } from './decide';
import { changedFields, definitionOf, fingerprintTool, type ToolDefinition } from './fingerprint';
import type { ConsentStore, Standing } from './store';

/** The decision, with what a "stale" question shows: what changed since the person approved it, and what they approved. */
export type Evaluation =
  | Exclude<Decision, { verdict: 'ask' }>
  | (Extract<Decision, { verdict: 'ask' }> & { readonly changed?: readonly string[]; readonly approved?: ToolDefinition });

/** A tool whose definition differs from the one the person approved (or that first ran without asking). */
export interface ToolReview {
  readonly tool: string;
  /** The approved fields that differ, e.g. ["description"]. */
  readonly changed: readonly string[];
  /** What the person approved: the model is offered this until they review the change. */
  readonly approved: ToolDefinition;
}

export interface ToolCallContext {
  /** The server's name, as the person configured it (messages and dialogs). */
  readonly server: string;
  /** What the server is (consent/identity.ts): every decision is keyed by it. */
  readonly identity: string;
  /** From Harbor's registry, never from the server. */
  readonly trusted: boolean;
  readonly tool: Tool;
  readonly conversationId?: string;
}

/** What settles a call: the decision that let it run, or the person's answer to the question. */
export type Outcome = { readonly decided: Extract<Decision, { verdict: 'allow' }> } | { readonly chose: Exclude<ConsentChoice, 'deny'> };

/**
 * Consent for tool calls around the pure decision (decide.ts): `evaluate` reads what the person
 * decided and decides, writing nothing; `record` is the one place a call's consent is written
 * afterwards (a first silent run pinned, a one-shot grant used up, the person's answer).
 */
export class ConsentPolicy {
  /** Per conversation: the fingerprints approved "for this conversation", by server identity and tool. */
  private readonly conversationApprovals = new Map<string, Map<string, Set<string>>>();

  /**
   * Each standing with nothing approved for a conversation, made once per standing: the store
   * keeps one answer until something changes, and most calls (every call outside a conversation)
   * need no copy of their own.
   */
  private readonly withoutConversation = new WeakMap<Standing, Approvals>();

  constructor(private readonly store: ConsentStore) {}

  /** What is recorded for this tool of this server (and this conversation), for `decide`. */
  approvalsOf(ctx: ToolCallContext): Approvals {
    const standing = this.store.standing(ctx.identity, ctx.tool.name);
    const approved = ctx.conversationId === undefined ? undefined : this.conversationApprovals.get(ctx.conversationId)?.get(key(ctx.identity, ctx.tool.name));
    if (approved) return { ...standing, conversation: [...approved] };
    let approvals = this.withoutConversation.get(standing);
    if (!approvals) this.withoutConversation.set(standing, (approvals = { ...standing, conversation: [] }));
    return approvals;
  }

  evaluate(ctx: ToolCallContext): Evaluation {
    const decision = decide(ctx.tool, fingerprintTool(ctx.tool), { trusted: ctx.trusted, inConversation: ctx.conversationId !== undefined }, this.approvalsOf(ctx));
    if (decision.verdict !== 'ask' || decision.against === undefined) return decision;
    const approved = this.definitionPinned(ctx.identity, ctx.tool.name, decision.against);
    // Revoked between the two reads: nothing approved, so nothing to compare with.
    if (!approved) return { verdict: 'ask', reason: 'required', options: decision.options };
    return { ...decision, changed: changedFields(approved, definitionOf(ctx.tool)), approved };
  }

  /**
   * Whether a tool changed since the person approved it: its definition against the approval that
   * decides its calls (always, then once), else the definition it was last approved as for a
   * while ("once", "this conversation") or first ran as without asking.
   * Undefined when nothing was approved or the definition is the approved one.
   */
  reviewOf(identity: string, tool: Tool): ToolReview | undefined {
    const standing = this.store.standing(identity, tool.name);
    const kind: PinKind | undefined = standing.always !== undefined ? 'always' : standing.once !== undefined ? 'once' : standing.silent !== undefined ? 'pinned' : undefined;
    if (kind === undefined || standing[kind === 'pinned' ? 'silent' : kind] === fingerprintTool(tool)) return undefined;
    const approved = this.definitionPinned(identity, tool.name, kind);
    if (!approved) return undefined; // revoked between the two reads: nothing approved, nothing to review
    return { tool: tool.name, changed: changedFields(approved, definitionOf(tool)), approved };
  }

  /** Records how a call's consent was settled, for this exact definition: the one place a call writes consent. */
  record(ctx: ToolCallContext, outcome: Outcome): void {
    // The steady state (an "always" approval, a setting) writes nothing: it builds nothing either.
    if ('decided' in outcome) {
      if (outcome.decided.via === 'once') this.store.consumeOnce(ctx.identity, ctx.tool.name);
      if (outcome.decided.pin) this.pin(ctx, fingerprintTool(ctx.tool));
      return;
    }
    const fingerprint = fingerprintTool(ctx.tool);
    if (outcome.chose === 'always') {
      this.store.grant({ name: ctx.server, identity: ctx.identity }, ctx.tool.name, 'always', fingerprint, definitionOf(ctx.tool));
      // An explicit re-approval replaces an older pending one-shot grant for another definition.
      this.store.consumeOnce(ctx.identity, ctx.tool.name);
      // ...and, for a tool pinned by a run or a shorter approval, is what it runs as from now on.
      if (this.store.standing(ctx.identity, ctx.tool.name).silent !== undefined) this.pin(ctx, fingerprint);
      return;
    }
    // "once" and "this conversation" pin what the person saw too: a later change is reviewed before the model reads it.
    this.pin(ctx, fingerprint);
    if (outcome.chose === 'conversation' && ctx.conversationId) {
      let tools = this.conversationApprovals.get(ctx.conversationId);
      if (!tools) this.conversationApprovals.set(ctx.conversationId, (tools = new Map()));
      let fingerprints = tools.get(key(ctx.identity, ctx.tool.name));
      if (!fingerprints) tools.set(key(ctx.identity, ctx.tool.name), (fingerprints = new Set()));
      fingerprints.add(fingerprint);
    }
  }

  /** Pins the definition the call runs as (a first silent run, or what the person saw when they answered). */
  private pin(ctx: ToolCallContext, fingerprint: string): void {
    this.store.pinSilent({ name: ctx.server, identity: ctx.identity }, ctx.tool.name, fingerprint, definitionOf(ctx.tool));
  }

  private definitionPinned(identity: string, tool: string, kind: PinKind): ToolDefinition | undefined {
    return kind === 'pinned' ? this.store.silentPin(identity, tool)?.definition : this.store.approval(identity, tool, kind)?.definition;
  }
}

function key(identity: string, tool: string): string {
  return `${identity}\u0000${tool}`;
}
