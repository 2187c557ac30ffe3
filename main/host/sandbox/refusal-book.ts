import type { SandboxChangeData, SandboxRefusalData } from '../../../preload/contract';
import { describeChange, registryRule, type SandboxChange, type SandboxRefusal } from './refusals';

/** Refusals kept per server (the oldest dropped first). */
const PER_SERVER = 100;

/**
 * What the sandbox refused each server, for the app: one entry per thing refused, counted, with
 * its suggestion. An entry goes once the person allows it (or the server is removed).
 */
export class RefusalBook {
  private readonly byServer = new Map<string, SandboxRefusalData[]>();

  constructor(
    private readonly onRecorded: (entry: SandboxRefusalData) => void,
    private readonly now: () => number = Date.now,
  ) {}

  record(server: string, refusal: SandboxRefusal): void {
    let entries = this.byServer.get(server);
    if (!entries) this.byServer.set(server, (entries = []));
    const index = entries.findIndex((e) => e.kind === refusal.kind && e.target === refusal.target);
    const previous = index >= 0 ? entries.splice(index, 1)[0] : undefined;
    const entry: SandboxRefusalData = {
      server,
      at: this.now(),
      kind: refusal.kind,
      target: refusal.target,
      count: (previous?.count ?? 0) + 1,
      ...(refusal.change ? { suggestion: { label: describeChange(refusal.change), change: toData(refusal.change), rule: registryRule(refusal.change) } } : {}),
    };
    entries.push(entry);
    if (entries.length > PER_SERVER) entries.splice(0, entries.length - PER_SERVER);
    this.onRecorded(entry);
  }

  /** One server's refusals, or every server's; newest last. */
  list(server?: string): SandboxRefusalData[] {
    if (server !== undefined) return [...(this.byServer.get(server) ?? [])];
    return [...this.byServer.values()].flat().sort((a, b) => a.at - b.at);
  }

  /** Drops the refusals a change allowed. */
  settle(server: string, change: SandboxChangeData): void {
    const entries = this.byServer.get(server);
    if (!entries) return;
    const key = JSON.stringify(change);
    this.byServer.set(
      server,
      entries.filter((e) => !e.suggestion || JSON.stringify(e.suggestion.change) !== key),
    );
  }

  forget(server: string): void {
    this.byServer.delete(server);
  }
}

function toData(change: SandboxChange): SandboxChangeData {
  return { ...change };
}
