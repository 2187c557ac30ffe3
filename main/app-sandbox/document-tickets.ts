/**
 * Single-use addresses of apps' documents. An app's HTML is served from its own address, with its
 * own CSP, rather than written into its frame (srcdoc): a srcdoc document shares its proxy's policy,
 * so the proxy could not allow the frames an app declared (frame-src) without also letting the app
 * navigate its own frame to them — away from its CSP, with the bridge still attached (#27.3).
 * Served separately, the proxy's policy lets its one child frame load exactly that address and
 * nothing else.
 *
 * A ticket is issued when an app's proxy page is served and taken by the one request for its
 * document: the address an app can read (its own location) opens nothing afterwards, and carries
 * neither the sandbox's token nor the app's instance id.
 */
import { randomBytes } from 'node:crypto';

/** Long enough for a slow machine to load the proxy and then its document. */
const TICKET_LIFETIME_MS = 120_000;
/** More proxies than any screen shows loading at once; past it the oldest tickets lapse. */
const MAX_TICKETS = 512;

/** Whose document a ticket opens, and the Harbor page its proxy was served to. */
export interface TicketHolder {
  readonly instanceId: string;
  readonly parentOrigin: string;
}

export class AppDocumentTickets {
  private readonly waiting = new Map<string, TicketHolder & { readonly expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(holder: TicketHolder): string {
    this.prune();
    const ticket = randomBytes(18).toString('base64url');
    this.waiting.set(ticket, { ...holder, expires: this.now() + TICKET_LIFETIME_MS });
    return ticket;
  }

  /** Whose document this ticket opens, once (undefined: unknown, used or lapsed). */
  take(ticket: string): TicketHolder | undefined {
    const entry = this.waiting.get(ticket);
    this.waiting.delete(ticket);
    return entry && entry.expires > this.now() ? { instanceId: entry.instanceId, parentOrigin: entry.parentOrigin } : undefined;
  }

  private prune(): void {
    const now = this.now();
    for (const [ticket, entry] of this.waiting) if (entry.expires <= now) this.waiting.delete(ticket);
    // Map order is insertion order: the first are the oldest.
    for (const ticket of this.waiting.keys()) {
      if (this.waiting.size < MAX_TICKETS) break;
      this.waiting.delete(ticket);
    }
  }
}
