import type { ConsentChoice, ConsentDecisions as DecisionsData, ConsentRequest } from '../../../preload/contract';
import type { ConsentGate } from '../consent/gate';
import type { PolicyMode } from '../consent/store';
import { HarborError } from '../errors';
import type { ServerControl } from './server-control';

/**
 * The person's side of consent: answering what the gate asks, and listing, granting and revoking
 * what was decided (the app's consent views, `harbor consent`). The gate itself, which every call
 * and launch passes, stays inside the Host.
 */
export class ConsentDecisions {
  constructor(
    private readonly gate: ConsentGate,
    private readonly servers: ServerControl,
  ) {}

  /** Requests still waiting for the person (a reloaded window shows them again). */
  pendingRequests(): ConsentRequest[] {
    return this.gate.pendingRequests();
  }

  /** The person's answer. Unknown, expired or already-answered ids are ignored (false). */
  respond(id: string, decision: ConsentChoice): boolean {
    return this.gate.respond(id, decision);
  }

  decisions(): DecisionsData {
    return this.gate.decisions();
  }

  /** Removes approvals of a server (or of one of its tools); returns how many. */
  revoke(server: string, tool?: string): number {
    return this.gate.revoke(server, tool);
  }

  /** Per-server ("*") and per-tool overrides: ask always, allow without asking, or block. */
  policies(): Array<{ server: string; tool: string; mode: PolicyMode }> {
    return this.gate.policies();
  }

  /** `mode` null removes the override (the tiers decide again). */
  setPolicy(server: string, tool: string, mode: PolicyMode | null): void {
    this.gate.setPolicy(server, tool, mode);
  }

  /** `--yes`, the app's "Start this time": approve launching a server (or '*') for this run only. */
  approveLaunchesForSession(server: string): void {
    this.gate.approveLaunchesForSession(server);
  }

  /** `harbor consent grant`: approves the tool as it is now (and launching its server as configured). */
  async grantTool(server: string, tool: string, always: boolean): Promise<void> {
    // The person named this server explicitly: that approves launching it as configured.
    this.servers.approveLaunch(server);
    const connection = await this.servers.ready(server);
    const definition = connection.catalog.tools.find((t) => t.name === tool);
    if (!definition) throw new HarborError('TOOL_NOT_FOUND', `"${server}" has no tool named "${tool}".`);
    this.gate.grant(server, definition, always);
  }
}
