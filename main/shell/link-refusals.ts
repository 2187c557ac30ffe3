/**
 * Tells the person about refused harbor:// links without letting a page flood them. A web page can
 * fire links in a loop; each refusal would be a message box and a log line. So the first refusal
 * is shown and logged; refusals that follow within a quiet period (each one extends it) are
 * counted, with one log line saying so; the first refusal after the quiet period is shown again,
 * saying how many were dropped in between.
 */
export interface LinkRefusalDeps {
  /** A message box. */
  readonly notify: (title: string, message: string) => void;
  readonly log: (message: string) => void;
  readonly now: () => number;
  /** How long after a refusal further ones stay silent (default 10 s). */
  readonly quietMs?: number;
}

export const DEFAULT_LINK_QUIET_MS = 10_000;

export class LinkRefusals {
  private quietUntil = Number.NEGATIVE_INFINITY;
  private dropped = 0;

  constructor(private readonly deps: LinkRefusalDeps) {}

  /** A link was refused: the person is told (unless a burst is under way); `logLine` for the log. */
  refused(title: string, message: string, logLine: string): void {
    if (this.inBurst()) return;
    const dropped = this.takeDropped();
    this.deps.log(`${logLine}${dropped}`);
    this.deps.notify(title, `${message}${dropped}`);
  }

  /** A link was set aside without a question (another is waiting): logged, unless a burst is under way. */
  ignored(logLine: string): void {
    if (this.inBurst()) return;
    this.deps.log(`${logLine}${this.takeDropped()}`);
  }

  private inBurst(): boolean {
    const now = this.deps.now();
    const quietMs = this.deps.quietMs ?? DEFAULT_LINK_QUIET_MS;
    const burst = now < this.quietUntil;
    this.quietUntil = now + quietMs;
    if (burst && this.dropped++ === 0) {
      this.deps.log(`harbor:// links keep arriving: further ones are set aside without a message until ${Math.round(quietMs / 1000)} s pass without one`);
    }
    return burst;
  }

  private takeDropped(): string {
    const dropped = this.dropped;
    this.dropped = 0;
    return dropped > 0 ? ` (${dropped} more harbor:// link${dropped === 1 ? ' was' : 's were'} set aside before this one)` : '';
  }
}
