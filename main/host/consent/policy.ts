import type { Tool } from '@modelcontextprotocol/client';
import type { ConsentChoice } from '../../../preload/contract';
import { changedFields, definitionOf, fingerprintTool, type ToolDefinition } from './fingerprint';
import type { ConsentStore } from './store';

export type Evaluation =
  | { readonly verdict: 'allow'; readonly via: 'trusted-read-only' | 'always' | 'once' | 'conversation' | 'setting' }
  | { readonly verdict: 'deny'; readonly via: 'setting' }
  | {
      readonly verdict: 'ask';
      readonly reason: 'required' | 'stale';
      readonly options: readonly ConsentChoice[];
      /** For "stale": what changed since the person approved it, and what they approved. */
      readonly changed?: readonly string[];
      readonly approved?: ToolDefinition;
    };

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

const ALL_CHOICES: readonly ConsentChoice[] = ['once', 'conversation', 'always', 'deny'];
/** A destructive tool is asked about every time: "for this conversation" is not offered. */
const DESTRUCTIVE_CHOICES: readonly ConsentChoice[] = ['once', 'always', 'deny'];

/**
 * The tiers (defaults; settings override per server and per tool):
 * - trusted server and readOnlyHint: true → runs without asking;
 * - untrusted server → its annotations are ignored; every call asks;
 * - destructiveHint: true, or absent (the spec's default) → asks every time unless the person
 *   chose "always" for that exact definition;
 * - otherwise → asks, offering once / this conversation / always / deny.
 * Every approval is pinned to the fingerprint of the definition the person saw, and so is every
 * tool that runs without asking (an "allow" setting, a trusted read-only tool): pinned the first
 * time it runs. A changed tool is "stale" and asks again, with what changed — whatever the policy.
 */
export class ConsentPolicy {
  private readonly conversationApprovals = new Map<string, Set<string>>();

  constructor(private readonly store: ConsentStore) {}

  evaluate(ctx: ToolCallContext): Evaluation {
    const { identity, tool } = ctx;
    const fingerprint = fingerprintTool(tool);
    const standing = this.store.standing(identity, tool.name);
    const setting = standing.override;
    if (setting === 'deny') return { verdict: 'deny', via: 'setting' };

    for (const kind of ['always', 'once'] as const) {
      const pinned = standing[kind];
      if (pinned === undefined) continue;
      if (pinned === fingerprint) return { verdict: 'allow', via: kind };
      return this.stale(ctx, this.store.approval(identity, tool.name, kind)!.definition);
    }
    const conversation = ctx.conversationId !== undefined && this.conversationApprovals.get(ctx.conversationId)?.has(key(identity, tool.name, fingerprint)) === true;
    const silently: Extract<Evaluation, { verdict: 'allow' }>['via'] | undefined =
      setting === 'allow' ? 'setting' : setting !== 'ask' && ctx.trusted && tool.annotations?.readOnlyHint === true ? 'trusted-read-only' : undefined;
    if (silently) {
      if (standing.silent === undefined) {
        // The first run without asking pins what ran: from now on a change asks (a rug pull).
        this.store.pinSilent({ name: ctx.server, identity }, tool.name, fingerprint, definitionOf(tool));
        return { verdict: 'allow', via: silently };
      }
      if (standing.silent === fingerprint) return { verdict: 'allow', via: silently };
      if (conversation) return { verdict: 'allow', via: 'conversation' };
      return this.stale(ctx, this.store.silentPin(identity, tool.name)!.definition);
    }
    if (conversation) return { verdict: 'allow', via: 'conversation' };
    return { verdict: 'ask', reason: 'required', options: this.optionsFor(ctx) };
  }

  /**
   * Whether a tool changed since the person approved it: its definition against the approval that
   * decides its calls (always, then once), else the definition it first ran as without asking.
   * Undefined when nothing was approved or the definition is the approved one.
   */
  reviewOf(identity: string, tool: Tool): ToolReview | undefined {
    const standing = this.store.standing(identity, tool.name);
    const pinned = standing.always ?? standing.once ?? standing.silent;
    if (pinned === undefined || pinned === fingerprintTool(tool)) return undefined;
    const kind = standing.always !== undefined ? 'always' : standing.once !== undefined ? 'once' : undefined;
    const approved = kind ? this.store.approval(identity, tool.name, kind)?.definition : this.store.silentPin(identity, tool.name)?.definition;
    if (!approved) return undefined; // revoked between the two reads: nothing approved, nothing to review
    return { tool: tool.name, changed: changedFields(approved, definitionOf(tool)), approved };
  }

  /** Records what the person chose for this exact definition. */
  record(ctx: ToolCallContext, choice: Exclude<ConsentChoice, 'deny'>): void {
    const fingerprint = fingerprintTool(ctx.tool);
    const server = { name: ctx.server, identity: ctx.identity };
    if (choice === 'always') {
      this.store.grant(server, ctx.tool.name, 'always', fingerprint, definitionOf(ctx.tool));
      // An explicit re-approval replaces an older pending one-shot grant for another definition.
      this.store.consumeOnce(ctx.identity, ctx.tool.name);
      // ...and, for a tool that runs without asking, is what it runs as from now on.
      if (this.store.standing(ctx.identity, ctx.tool.name).silent !== undefined) this.store.pinSilent(server, ctx.tool.name, fingerprint, definitionOf(ctx.tool));
    } else if (choice === 'conversation' && ctx.conversationId) {
      let set = this.conversationApprovals.get(ctx.conversationId);
      if (!set) this.conversationApprovals.set(ctx.conversationId, (set = new Set()));
      set.add(key(ctx.identity, ctx.tool.name, fingerprint));
    }
  }

  private stale(ctx: ToolCallContext, approved: ToolDefinition): Evaluation {
    return { verdict: 'ask', reason: 'stale', options: this.optionsFor(ctx), changed: changedFields(approved, definitionOf(ctx.tool)), approved };
  }

  /** Untrusted servers' annotations are ignored: their tools count as possibly destructive. */
  private optionsFor(ctx: ToolCallContext): readonly ConsentChoice[] {
    const annotations = ctx.trusted ? ctx.tool.annotations : undefined;
    const destructive = annotations?.readOnlyHint !== true && annotations?.destructiveHint !== false;
    const choices = ctx.trusted && destructive ? DESTRUCTIVE_CHOICES : ALL_CHOICES;
    // A call outside a conversation (a tool run by hand) has no conversation to remember it for.
    return ctx.conversationId === undefined ? choices.filter((c) => c !== 'conversation') : choices;
  }
}

function key(identity: string, tool: string, fingerprint: string): string {
  return `${identity}\u0000${tool}\u0000${fingerprint}`;
}
