import type { ConsentChoice, ConsentDecisions as DecisionsData, ConsentRequest } from '../../../preload/contract';
import type { ConsentGate } from '../consent/gate';
import { launchKey } from '../consent/identity';
import type { PolicyMode } from '../consent/store';
import { HarborError } from '../errors';
import type { ServerControl } from './server-control';
import type { ServerIdentities } from './server-identities';

/**
 * The person's side of consent: answering what the gate asks, and listing, granting and revoking
 * what was decided (the app's consent views, `harbor consent`). Front doors name servers; the
 * gate keys every decision by what the server is, so names are translated here (lists show the
 * name a server has now). The gate itself, which every call and launch passes, stays inside the Host.
 */
export class ConsentDecisions {
  constructor(
    private readonly gate: ConsentGate,
    private readonly servers: ServerControl,
    private readonly identities: ServerIdentities,
  ) {}

  /** Requests still waiting for the person (a reloaded window shows them again). */
  pendingRequests(): ConsentRequest[] {
    return this.gate.questions.requests();
  }

  /** The person's answer. Unknown, expired, already-answered or not-offered answers are ignored (false). */
  respond(id: string, decision: ConsentChoice): boolean {
    const question = this.gate.questions.get(id);
    const settled = this.gate.questions.answer(id, decision).kind === 'settled';
    // The person's own Deny of a launch holds for this run (a deadline passing is not a Deny).
    if (settled && decision === 'deny' && question?.kind === 'launch') this.gate.denyLaunchForSession(question.server);
    return settled;
  }

  /**
   * Asks the person through the Host's one consent queue, for a question the desktop shell raises
   * itself (a harbor:// link): it is listed and answered like every other (`consent.pending`,
   * `consent.respond`). An aborted `signal` takes it down, as a denial.
   */
  ask(request: Omit<ConsentRequest, 'id' | 'deadline'>, signal?: AbortSignal): Promise<ConsentChoice> {
    return this.gate.questions.ask(request, signal);
  }

  decisions(): DecisionsData {
    const rows = this.gate.decisions();
    const named = this.namer();
    return {
      approvals: rows.approvals.map(({ identity, server, tool, kind, fingerprint, createdAt }) => ({ server: named(identity, server), tool, kind, fingerprint, createdAt })),
      launches: rows.launches.map(({ identity, server, commandLine, createdAt }) => ({ server: named(identity, server), commandLine, createdAt })),
      changes: rows.changes.map(({ identity, server, tool, changed, at }) => ({ server: named(identity, server), tool, changed, at })),
      secrets: rows.secrets.map(({ secret, identity, server, origin, createdAt }) => ({ secret, server: named(identity, server), origin, createdAt })),
    };
  }

  /** Removes approvals of a server (or of one of its tools); returns how many. */
  revoke(server: string, tool?: string): number {
    // A name no longer configured: whatever is still recorded under it.
    const identities = [this.identities.find(server)?.identity ?? this.gate.identitiesNamed(server)].flat();
    return identities.reduce((sum, identity) => sum + this.gate.revoke(identity, tool), 0);
  }

  /** Per-server ("*") and per-tool overrides: ask always, allow without asking, or block. */
  policies(): Array<{ server: string; tool: string; mode: PolicyMode }> {
    const named = this.namer();
    return this.gate.policies().map(({ identity, server, tool, mode }) => ({ server: named(identity, server), tool, mode }));
  }

  /** `mode` null removes the override (the tiers decide again). */
  setPolicy(server: string, tool: string, mode: PolicyMode | null): void {
    this.gate.setPolicy(this.identities.ref(server), tool, mode);
  }

  /** `--yes`, the app's "Start this time": approve launching a server as configured now (or every server, '*') for this run only. */
  approveLaunchesForSession(server: string): void {
    this.gate.approveLaunchForSession(server === '*' ? '*' : launchKey(this.identities.of(server).config));
  }

  /** `harbor consent grant`: approves the tool as it is now (and launching its server as configured). */
  async grantTool(server: string, tool: string, always: boolean): Promise<void> {
    // The person named this server explicitly: that approves launching it as configured.
    this.servers.approveLaunch(server);
    const connection = await this.servers.ready(server);
    const definition = connection.catalog.tools.find((t) => t.name === tool);
    if (!definition) throw new HarborError('TOOL_NOT_FOUND', `"${server}" has no tool named "${tool}".`);
    this.gate.grant(this.identities.ref(server), definition, always);
  }

  /** Rows keep the name they were decided under; a server configured now is shown by its current name. */
  private namer(): (identity: string, recorded: string) => string {
    const names = this.identities.names();
    return (identity, recorded) => {
      const now = names.get(identity);
      return now && !now.includes(recorded) ? now[0]! : recorded;
    };
  }
}
