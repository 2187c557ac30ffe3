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

export interface ToolCallContext {
  readonly server: string;
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
 * Every approval is pinned to the fingerprint of the definition the person saw: a changed tool
 * is "stale" and asks again, with what changed.
 */
export class ConsentPolicy {
  private readonly conversationApprovals = new Map<string, Set<string>>();

  constructor(private readonly store: ConsentStore) {}

  evaluate(ctx: ToolCallContext): Evaluation {
    const { server, tool } = ctx;
    const fingerprint = fingerprintTool(tool);
    const standing = this.store.standing(server, tool.name);
    const setting = standing.override;
    if (setting === 'deny') return { verdict: 'deny', via: 'setting' };
    if (setting === 'allow') return { verdict: 'allow', via: 'setting' };

    for (const kind of ['always', 'once'] as const) {
      const pinned = standing[kind];
      if (pinned === undefined) continue;
      if (pinned === fingerprint) return { verdict: 'allow', via: kind };
      const approval = this.store.approval(server, tool.name, kind)!;
      return {
        verdict: 'ask',
        reason: 'stale',
        options: this.optionsFor(ctx),
        changed: changedFields(approval.definition, definitionOf(tool)),
        approved: approval.definition,
      };
    }
    if (ctx.conversationId && this.conversationApprovals.get(ctx.conversationId)?.has(key(server, tool.name, fingerprint))) {
      return { verdict: 'allow', via: 'conversation' };
    }
    if (setting !== 'ask' && ctx.trusted && tool.annotations?.readOnlyHint === true) {
      return { verdict: 'allow', via: 'trusted-read-only' };
    }
    return { verdict: 'ask', reason: 'required', options: this.optionsFor(ctx) };
  }

  /** Records what the person chose for this exact definition. */
  record(ctx: ToolCallContext, choice: Exclude<ConsentChoice, 'deny'>): void {
    const fingerprint = fingerprintTool(ctx.tool);
    if (choice === 'always') {
      this.store.grant(ctx.server, ctx.tool.name, 'always', fingerprint, definitionOf(ctx.tool));
      // An explicit re-approval replaces an older pending one-shot grant for another definition.
      this.store.consumeOnce(ctx.server, ctx.tool.name);
    } else if (choice === 'conversation' && ctx.conversationId) {
      let set = this.conversationApprovals.get(ctx.conversationId);
      if (!set) this.conversationApprovals.set(ctx.conversationId, (set = new Set()));
      set.add(key(ctx.server, ctx.tool.name, fingerprint));
    }
  }

  /** Untrusted servers' annotations are ignored: their tools count as possibly destructive. */
  private optionsFor(ctx: ToolCallContext): readonly ConsentChoice[] {
    const annotations = ctx.trusted ? ctx.tool.annotations : undefined;
    const destructive = annotations?.readOnlyHint !== true && annotations?.destructiveHint !== false;
    return ctx.trusted && destructive ? DESTRUCTIVE_CHOICES : ALL_CHOICES;
  }
}

function key(server: string, tool: string, fingerprint: string): string {
  return `${server}\u0000${tool}\u0000${fingerprint}`;
}
