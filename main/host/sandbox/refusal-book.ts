import type { SandboxChangeData, SandboxRefusalData } from '../../../preload/contract';
import { RingLog, type RingLimits } from '../ring-log';
import { describeChange, registryRule, type SandboxChange, type SandboxRefusal } from './refusals';

/** Refusals kept per server (the oldest dropped first): at most 100, and 256 KB of them. */
export const REFUSAL_LIMITS: RingLimits = { maxEntries: 100, maxBytes: 256 * 1024 };

const sizeOf = (entry: SandboxRefusalData) => 128 + entry.target.length + (entry.suggestion ? 2 * entry.suggestion.label.length + entry.suggestion.rule.length : 0);

/**
 * What the sandbox refused each server, for the app: one entry per thing refused, counted, with
 * its suggestion, on the Host's one ring log per server. An entry goes once the person allows it
 * (or the server is removed).
 */
export class RefusalBook {
  private readonly byServer = new Map<string, RingLog<SandboxRefusalData>>();

  constructor(
    private readonly onRecorded: (entry: SandboxRefusalData) => void,
    private readonly now: () => number = Date.now,
  ) {}

  record(server: string, refusal: SandboxRefusal): void {
    let entries = this.byServer.get(server);
    if (!entries) this.byServer.set(server, (entries = new RingLog(REFUSAL_LIMITS, sizeOf)));
    const same = (e: SandboxRefusalData) => e.kind === refusal.kind && e.target === refusal.target;
    const previous = entries.filter(same)[0];
    // A repeat is counted and moves to the end.
    if (previous) entries.retain((e) => !same(e));
    const entry: SandboxRefusalData = {
      server,
      at: this.now(),
      kind: refusal.kind,
      target: refusal.target,
      count: (previous?.count ?? 0) + 1,
      ...(refusal.change ? { suggestion: { label: describeChange(refusal.change), change: toData(refusal.change), rule: registryRule(refusal.change) } } : {}),
    };
    entries.push(entry);
    this.onRecorded(entry);
  }

  /** One server's refusals, or every server's; newest last. */
  list(server?: string): SandboxRefusalData[] {
    if (server !== undefined) return this.byServer.get(server)?.toArray() ?? [];
    return [...this.byServer.values()].flatMap((entries) => entries.toArray()).sort((a, b) => a.at - b.at);
  }

  /** Drops the refusals a change allowed. */
  settle(server: string, change: SandboxChangeData): void {
    const key = JSON.stringify(change);
    this.byServer.get(server)?.retain((e) => !e.suggestion || JSON.stringify(e.suggestion.change) !== key);
  }

  forget(server: string): void {
    this.byServer.delete(server);
  }
}

function toData(change: SandboxChange): SandboxChangeData {
  return { ...change };
}
