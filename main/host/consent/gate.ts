import type { Tool } from '@modelcontextprotocol/client';
import type { ConsentRequester } from '../../../preload/contract';
import { HarborError } from '../errors';
import type { HostEvents } from '../events';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import { AppSessionGrants } from './app-session-grants';
import { changedFields, definitionOf, FINGERPRINTED_FIELDS, fingerprintTool } from './fingerprint';
import type { ServerRef } from './identity';
import { LaunchConsent, type LaunchTarget } from './launch-consent';
import { consentQuestions, type ConsentQuestions } from './pending';
import { ConsentPolicy, type Evaluation, type ToolCallContext, type ToolReview } from './policy';
import type { ConsentStore, LaunchApproval, PolicyMode, PolicyOverride, ToolApproval, ToolChange } from './store';
import type { BindingOrigin, SecretBinding } from './secret-bindings';

/** Everything the person decided, by server identity, each row with the name it was decided under. */
export interface DecisionRows {
  readonly approvals: readonly ToolApproval[];
  readonly launches: readonly LaunchApproval[];
  readonly changes: readonly ToolChange[];
  readonly secrets: readonly SecretBinding[];
}

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
  /** The caller gave up (an app that closed): a question still waiting is taken down, and the call ends CANCELLED. */
  readonly signal?: AbortSignal;
  /** Who asks: named in the dialog. */
  readonly requester?: ConsentRequester;
  /**
   * An App's own call: the tools of its server it may call at all (MCP Apps' visibility), as the
   * catalog has them now — what "Allow this App to use SERVER's tools for this session" covers.
   */
  readonly appTools?: readonly Tool[];
}

/**
 * The one gate every tool call, every launch (a stdio command, the first request to a remote
 * server) and every secret a launch carries goes through (CLI, chat loop, UI). Decisions are
 * keyed by the server's identity (consent/identity.ts), never its name alone. Consent defaults to
 * no: a pending request has an id and a deadline; a reply for an unknown or expired id is
 * ignored; closing or timing out is a denial.
 */
export class ConsentGate implements Disposable {
  readonly policy: ConsentPolicy;
  /** The consent questions waiting for the person (answered and listed through ConsentDecisions). */
  readonly questions: ConsentQuestions;
  private readonly launches: LaunchConsent;
  /** "Allow this App to use SERVER's tools for this session": in memory, for this run only. */
  private readonly appSessions = new AppSessionGrants();

  constructor(
    private readonly store: ConsentStore,
    private readonly events: HostEvents,
    private readonly options: ConsentGateOptions,
  ) {
    this.policy = new ConsentPolicy(store);
    this.questions = consentQuestions(events, options.timeoutMs, options.now);
    this.launches = new LaunchConsent(store, (request) => this.questions.ask(request), options.interactive);
    trackDisposable(this);
  }

  /** Whether a person can be asked here (the app, browser mode); the CLI refuses instead. */
  get interactive(): boolean {
    return this.options.interactive;
  }

  // ------------------------------------------------------------------------------------------
  // Tool calls

  /**
   * Settles a tool call's consent. Undefined when the call may run now (an approval standing for
   * this definition, a trusted server, --yes, an App's session grant): decided synchronously, so
   * the steady state of every approved call pays no promise or async frame here. Otherwise a
   * promise that resolves once the person allowed it, or rejects with CONSENT_REQUIRED /
   * CONSENT_STALE / CONSENT_DENIED / CANCELLED.
   */
  authorizeTool(ctx: ToolAuthorization): Promise<void> | undefined {
    // --yes approves this one call up front: only a "never run" setting can still refuse it.
    if (ctx.approveOnce && this.store.standing(ctx.identity, ctx.tool.name).override !== 'deny') return undefined;
    const app = appAsking(ctx);
    if (app && this.coveredForApp(ctx, app.uri)) return undefined;
    const evaluation = this.policy.evaluate(ctx);
    if (evaluation.verdict === 'allow') {
      this.policy.record(ctx, { decided: evaluation });
      return undefined;
    }
    return this.askOrRefuse(ctx, evaluation, app);
  }

  /** A call the settings do not allow outright: refused, or (where a person can answer) asked about. */
  private async askOrRefuse(ctx: ToolAuthorization, evaluation: Exclude<Evaluation, { verdict: 'allow' }>, app: { readonly uri: string } | undefined): Promise<void> {
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
    const choice = await this.questions.ask({
      kind: 'tool',
      server: ctx.server,
      trusted: ctx.trusted,
      // Only an App's own call may be answered for the App's whole session.
      options: app ? [...evaluation.options.filter((o) => o !== 'deny'), 'app-session', 'deny'] : [...evaluation.options],
      ...(ctx.conversationId ? { conversationId: ctx.conversationId } : {}),
      ...(ctx.requester ? { requester: ctx.requester } : {}),
      tool: {
        name: ctx.tool.name,
        ...(ctx.tool.title ? { title: ctx.tool.title } : {}),
        description: ctx.tool.description ?? '',
        ...(ctx.tool.annotations ? { annotations: { ...ctx.tool.annotations } } : {}),
      },
      arguments: ctx.arguments ?? {},
      ...(stale ? { stale: { changed: [...(evaluation.changed ?? [])], before: evaluation.approved, after: definitionOf(ctx.tool) } } : {}),
    }, ctx.signal);
    if (ctx.signal?.aborted) throw new HarborError('CANCELLED', reasonOf(ctx.signal));
    if (choice === 'deny') throw new HarborError('CONSENT_DENIED', 'The user denied this call.');
    // The session grant pins what the person saw, as "once" does (a later change is reviewed with its diff).
    this.policy.record(ctx, { chose: choice });
    if (choice === 'app-session' && app) this.appSessions.grant(ctx.identity, app.uri, this.grantableForApp(ctx));
  }

  /**
   * An App's call its session grant covers (this tool, this exact definition): it runs without
   * asking — unless the person's setting blocks the tool or asks every time. Its first run pins
   * its definition, so a later change asks with the diff.
   */
  private coveredForApp(ctx: ToolAuthorization, uri: string): boolean {
    const fingerprint = fingerprintTool(ctx.tool);
    if (!this.appSessions.covers(ctx.identity, uri, ctx.tool.name, fingerprint)) return false;
    const standing = this.store.standing(ctx.identity, ctx.tool.name);
    if (standing.override === 'deny' || standing.override === 'ask') return false;
    this.policy.record(ctx, { decided: { verdict: 'allow', via: 'app-session', pin: standing.silent === undefined } });
    return true;
  }

  /**
   * What the session grant covers: the tools the App may call, each as defined now — except one
   * that changed since the person approved it (it still asks, with the diff) — and the tool asked
   * about, as the person just saw it.
   */
  private grantableForApp(ctx: ToolAuthorization): Map<string, string> {
    const tools = new Map<string, string>();
    for (const tool of ctx.appTools ?? []) {
      if (tool.name !== ctx.tool.name && this.policy.reviewOf(ctx.identity, tool) === undefined) tools.set(tool.name, fingerprintTool(tool));
    }
    tools.set(ctx.tool.name, fingerprintTool(ctx.tool));
    return tools;
  }

  /** `harbor consent grant`: once = the next call only; always = pinned to today's definition. */
  grant(server: ServerRef, tool: Tool, always: boolean): void {
    const fingerprint = fingerprintTool(tool);
    this.store.grant(server, tool.name, always ? 'always' : 'once', fingerprint, definitionOf(tool));
    if (always) this.store.consumeOnce(server.identity, tool.name);
  }

  /** Removes a server's tool approvals (and its launch approval), or one tool's. */
  revoke(identity: string, tool?: string): number {
    // Revoking a server's (or a tool's) approvals ends what its Apps' session grants cover too.
    this.appSessions.forget(identity, tool);
    return this.store.revoke(identity, tool);
  }

  /** Per-server ("*") and per-tool overrides of the tiers: ask always, allow without asking, or block. */
  policies(): PolicyOverride[] {
    return this.store.overrides();
  }

  /** `mode` null removes the override (the tiers decide again). */
  setPolicy(server: ServerRef, tool: string, mode: PolicyMode | null): void {
    this.store.setOverride(server, tool, mode);
  }

  decisions(): DecisionRows {
    return { approvals: this.store.approvals(), launches: this.store.launchApprovals(), changes: this.store.changes(), secrets: this.store.secrets.all() };
  }

  /** The identities decisions were recorded under with this name (for a server no longer configured). */
  identitiesNamed(name: string): string[] {
    return this.store.identitiesNamed(name);
  }

  /**
   * Called on every catalog refresh: a tool whose definition no longer matches what the person
   * approved, or what first ran without asking, is a rug pull. Its approval stays suspended (the
   * fingerprint no longer matches), the change is recorded once for the diff, and
   * `consent.changed` tells the UI.
   */
  reviewCatalog(server: ServerRef, tools: readonly Tool[]): void {
    const byName = new Map(tools.map((t) => [t.name, t]));
    const pinned = [...this.store.approvals(server.identity), ...this.store.silentPins(server.identity)];
    const seen = new Set<string>();
    for (const { tool, definition } of pinned) {
      const current = byName.get(tool);
      if (!current || seen.has(tool)) continue; // gone: if it comes back different, the fingerprint catches it
      const fingerprint = fingerprintTool(current);
      if (fingerprint === fingerprintTool(definition)) continue;
      seen.add(tool);
      const last = this.store.lastChange(server.identity, tool);
      if (last?.after && fingerprintTool(last.after) === fingerprint) continue; // already recorded
      const changed = changedFields(definition, definitionOf(current));
      this.store.recordChange(server, tool, definition, definitionOf(current), changed);
      this.events.emit('consent.changed', { server: server.name, tool, changed });
    }
  }

  /** The tools of a server that changed since the person approved them (see ConsentPolicy.reviewOf). */
  reviews(identity: string, tools: readonly Tool[]): ToolReview[] {
    return tools.flatMap((tool) => this.policy.reviewOf(identity, tool) ?? []);
  }

  /**
   * Each tool as a model may be offered it: one that changed since the person approved it is
   * offered as they approved it (its other fields, e.g. `_meta`, as they are now), until they
   * review the change — its new text never reaches a model first. A call still meets today's
   * definition at the gate, and asks with the diff.
   */
  asApproved(identity: string, tools: readonly Tool[]): Tool[] {
    return tools.map((tool) => {
      const review = this.policy.reviewOf(identity, tool);
      if (!review) return tool;
      const rest: Record<string, unknown> = { ...tool };
      for (const field of FINGERPRINTED_FIELDS) delete rest[field];
      return { ...rest, ...review.approved } as Tool;
    });
  }

  /** Forgets everything decided about a server that left the registry. */
  forget(identity: string): void {
    this.appSessions.forget(identity);
    this.store.forget(identity);
  }

  // ------------------------------------------------------------------------------------------
  // Launches and the secrets they carry

  /** Starting a stdio server runs code; reaching a remote one sends it requests: both need approval unless trusted. */
  authorizeLaunch(target: LaunchTarget): Promise<void> {
    return this.launches.authorizeLaunch(target);
  }

  /** Each secret a launch carries must belong to its server (or be granted now, in the app). */
  authorizeSecrets(target: LaunchTarget): Promise<void> {
    return this.launches.authorizeSecrets(target);
  }

  /** Whether the launch would start without asking (the connection doctor's question; records nothing). */
  isLaunchApproved(target: LaunchTarget): boolean {
    return this.launches.isApproved(target);
  }

  /** Persists approval of a server's launch as configured now (the person named it explicitly). */
  approveLaunch(target: LaunchTarget): void {
    this.launches.approve(target);
  }

  /** `--yes`, "Start this time": approve one launch (its launch key) or every launch ("*") for this run only. */
  approveLaunchForSession(key: string): void {
    this.launches.approveForSession(key);
  }

  /** The person answered a launch question of `server` with Deny: not asked again this run until they start it. */
  denyLaunchForSession(server: string): void {
    this.launches.denyForSession(server);
  }

  /** The person starts the server themselves: a Deny held for this run no longer holds. */
  forgetLaunchDenial(target: LaunchTarget): void {
    this.launches.forgetDenial(target);
  }

  /** The secret belongs to this server from now on. */
  bindSecret(secret: string, server: ServerRef, origin: BindingOrigin): void {
    this.store.secrets.bind(secret, server, origin);
  }

  unbindSecret(secret: string, identity: string): boolean {
    return this.store.secrets.unbind(secret, identity);
  }

  isSecretBound(secret: string, identity: string): boolean {
    return this.store.secrets.isBound(secret, identity);
  }

  /** The secrets a server has (to carry them over when the person edits it). */
  secretsOf(identity: string): string[] {
    return this.store.secrets.secretsOf(identity);
  }

  dispose(): void {
    markAsDisposed(this);
    this.questions.dispose();
  }
}

/** The App asking for its own server's tool (its ui:// resource known), or undefined for any other requester. */
function appAsking(ctx: ToolAuthorization): { readonly uri: string } | undefined {
  const requester = ctx.requester;
  return requester?.kind === 'app' && requester.uri !== undefined && requester.server === ctx.server ? { uri: requester.uri } : undefined;
}

/** Why a caller gave up, for the CANCELLED error. */
function reasonOf(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'The request was withdrawn before the person answered.';
}
