import type { Tool } from '@modelcontextprotocol/client';
import type { ConsentChoice, ConsentDecisions, ConsentRequest } from '../../../preload/contract';
import { HarborError } from '../errors';
import type { HostEvents } from '../events';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import { describeLaunch, launchHash, type LaunchSpec } from '../servers/launch';
import { changedFields, definitionOf, fingerprintTool } from './fingerprint';
import { PendingConsents } from './pending';
import { ConsentPolicy, type ToolCallContext } from './policy';
import type { ConsentStore, PolicyMode } from './store';

export interface ConsentGateOptions {
  /**
   * True where a person can answer (the app: Electron or browser mode): the gate asks through a
   * `consent.request` event and waits. False (CLI): it refuses with CONSENT_REQUIRED/STALE.
   */
  readonly interactive: boolean;
  /** How long a pending request waits before it counts as denied. */
  readonly timeoutMs?: number;
  readonly now?: () => number;
}

export interface ToolAuthorization extends ToolCallContext {
  readonly arguments?: Record<string, unknown>;
  /** `--yes`: the person approved this one call (and the launch it needs) up front. */
  readonly approveOnce?: boolean;
}

/**
 * The one gate every tool call and every stdio launch goes through (CLI, chat loop, UI).
 * Consent defaults to no: a pending request has an id and a deadline; a reply for an unknown or
 * expired id is ignored; closing or timing out is a denial.
 */
export class ConsentGate implements Disposable {
  readonly policy: ConsentPolicy;
  private readonly pending: PendingConsents;
  private readonly sessionLaunches = new Set<string>();

  constructor(
    private readonly store: ConsentStore,
    private readonly events: HostEvents,
    private readonly options: ConsentGateOptions,
  ) {
    this.policy = new ConsentPolicy(store);
    this.pending = new PendingConsents(events, options.timeoutMs, options.now);
    trackDisposable(this);
  }

  // ------------------------------------------------------------------------------------------
  // Tool calls

  /** Resolves when the call may run; throws CONSENT_REQUIRED / CONSENT_STALE / CONSENT_DENIED. */
  async authorizeTool(ctx: ToolAuthorization): Promise<void> {
    // --yes approves this one call up front: only a "never run" setting can still refuse it.
    if (ctx.approveOnce && this.store.standing(ctx.server, ctx.tool.name).override !== 'deny') return;
    const evaluation = this.policy.evaluate(ctx);
    if (evaluation.verdict === 'allow') {
      if (evaluation.via === 'once') this.store.consumeOnce(ctx.server, ctx.tool.name);
      return;
    }
    const label = `"${ctx.tool.name}" on "${ctx.server}"`;
    if (evaluation.verdict === 'deny') {
      throw new HarborError('CONSENT_DENIED', `Calling ${label} is blocked by your consent settings.`);
    }
    const stale = evaluation.reason === 'stale';
    if (!this.options.interactive) {
      if (stale) {
        throw new HarborError(
          'CONSENT_STALE',
          `${label} changed since you approved it (${evaluation.changed?.join(', ')}). Review it and approve again: harbor consent grant ${ctx.server} ${ctx.tool.name} [--always], or add --yes to approve this one call.`,
          undefined,
          { changed: evaluation.changed ?? [] },
        );
      }
      throw new HarborError('CONSENT_REQUIRED', `Calling ${label} needs your consent: add --yes to approve this call, or run harbor consent grant ${ctx.server} ${ctx.tool.name} [--always].`);
    }
    const choice = await this.ask({
      kind: 'tool',
      server: ctx.server,
      trusted: ctx.trusted,
      options: [...evaluation.options],
      ...(ctx.conversationId ? { conversationId: ctx.conversationId } : {}),
      tool: {
        name: ctx.tool.name,
        ...(ctx.tool.title ? { title: ctx.tool.title } : {}),
        description: ctx.tool.description ?? '',
        ...(ctx.tool.annotations ? { annotations: { ...ctx.tool.annotations } } : {}),
      },
      arguments: ctx.arguments ?? {},
      ...(stale ? { stale: { changed: [...(evaluation.changed ?? [])], before: evaluation.approved, after: definitionOf(ctx.tool) } } : {}),
    });
    if (choice === 'deny') throw new HarborError('CONSENT_DENIED', 'The user denied this call.');
    this.policy.record(ctx, choice);
  }

  /** `harbor consent grant`: once = the next call only; always = pinned to today's definition. */
  grant(server: string, tool: Tool, always: boolean): void {
    const fingerprint = fingerprintTool(tool);
    this.store.grant(server, tool.name, always ? 'always' : 'once', fingerprint, definitionOf(tool));
    if (always) this.store.consumeOnce(server, tool.name);
  }

  revoke(server: string, tool?: string): number {
    return this.store.revoke(server, tool);
  }

  /** Per-server ("*") and per-tool overrides of the tiers: ask always, allow without asking, or block. */
  policies(): Array<{ server: string; tool: string; mode: PolicyMode }> {
    return this.store.overrides();
  }

  /** `mode` null removes the override (the tiers decide again). */
  setPolicy(server: string, tool: string, mode: PolicyMode | null): void {
    this.store.setOverride(server, tool, mode);
  }

  decisions(): ConsentDecisions {
    return {
      approvals: this.store.approvals().map(({ server, tool, kind, fingerprint, createdAt }) => ({ server, tool, kind, fingerprint, createdAt })),
      launches: this.store.launchApprovals().map(({ server, commandLine, createdAt }) => ({ server, commandLine, createdAt })),
      changes: this.store.changes().map(({ server, tool, changed, at }) => ({ server, tool, changed, at })),
    };
  }

  /**
   * Called on every catalog refresh: an approved tool whose definition no longer matches is a
   * rug pull. Its approval stays suspended (the fingerprint no longer matches), the change is
   * recorded once for the diff, and `consent.changed` tells the UI.
   */
  reviewCatalog(server: string, tools: readonly Tool[]): void {
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const approval of this.store.approvals(server)) {
      const current = byName.get(approval.tool);
      if (!current) continue; // gone: if it comes back different, the fingerprint catches it
      const fingerprint = fingerprintTool(current);
      if (fingerprint === approval.fingerprint) continue;
      const last = this.store.lastChange(server, approval.tool);
      if (last?.after && fingerprintTool(last.after) === fingerprint) continue; // already recorded
      const changed = changedFields(approval.definition, definitionOf(current));
      this.store.recordChange(server, approval.tool, approval.definition, definitionOf(current), changed);
      this.events.emit('consent.changed', { server, tool: approval.tool, changed });
    }
  }

  // ------------------------------------------------------------------------------------------
  // Launches

  /**
   * Starting a stdio server runs code on the person's machine: the first launch, and every launch
   * after its command, args, env or cwd changed, needs approval of the exact command line — unless
   * the person marked the server trusted.
   */
  async authorizeLaunch(server: string, trusted: boolean, spec: LaunchSpec): Promise<void> {
    if (spec.transport !== 'stdio' || trusted) return;
    const hash = launchHash(spec);
    if (this.sessionLaunches.has(server) || this.sessionLaunches.has('*')) return;
    if (this.store.launchApproval(server)?.launchHash === hash) return;
    const commandLine = describeLaunch(spec);
    if (!this.options.interactive) {
      throw new HarborError(
        'CONSENT_REQUIRED',
        `Launching "${server}" runs this on your machine: ${commandLine}. Approve it with --yes (this run) or harbor consent grant-launch ${server}, or mark the server "trusted": true.`,
      );
    }
    const choice = await this.ask({
      kind: 'launch',
      server,
      trusted,
      options: ['once', 'always', 'deny'],
      launch: { commandLine, envNames: Object.keys(spec.env).sort(), ...(spec.cwd ? { cwd: spec.cwd } : {}) },
    });
    if (choice === 'deny') throw new HarborError('CONSENT_DENIED', `You did not allow launching "${server}".`);
    if (choice === 'always') this.store.approveLaunch(server, hash, commandLine);
    else this.sessionLaunches.add(server);
  }

  /**
   * Persists approval of a server's launch as configured now (the person named it explicitly).
   * False when this server needs no such approval, so nothing was recorded.
   */
  approveLaunch(server: string, spec: LaunchSpec): boolean {
    if (spec.transport !== 'stdio') return false;
    this.store.approveLaunch(server, launchHash(spec), describeLaunch(spec));
    return true;
  }

  /** `--yes`: approve launching these servers (or '*') for this run only. */
  approveLaunchesForSession(server: string): void {
    this.sessionLaunches.add(server);
  }

  // ------------------------------------------------------------------------------------------
  // Asking

  private ask(request: Omit<ConsentRequest, 'id' | 'deadline'>): Promise<ConsentChoice> {
    return this.pending.ask(request);
  }

  /** The person's answer. Unknown, expired or already-answered ids are ignored (false). */
  respond(id: string, decision: ConsentChoice): boolean {
    return this.pending.respond(id, decision);
  }

  /** Requests still waiting for the person (a reloaded window shows them again). */
  pendingRequests(): ConsentRequest[] {
    return this.pending.requests();
  }

  dispose(): void {
    markAsDisposed(this);
    this.pending.dispose();
  }
}
