import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { APP_LIMITS, APP_NAVIGATED_METHOD, APP_STOPPED_METHOD, createAppLimiter, type AppLimit, type AppLimiter } from '../../../../preload/contract';

const LIMITS: readonly AppLimit[] = ['rate', 'size', 'bytes', 'shape'];

/**
 * The bridge's wire to one app's sandbox proxy. It replaces the SDK's PostMessageTransport, which
 * checks only a message's source window and posts with targetOrigin "*": here a message counts
 * only when it comes from this frame's window AND from the sandbox origin, and every message goes
 * out addressed to that origin alone — if the frame were ever navigated elsewhere, nothing of the
 * bridge would reach the new page. Another app (or the app itself, posting to the top window
 * directly) is a different source and is ignored.
 *
 * Behind the proxy's own limits (which stop a flood first), the same limiter holds here: an app
 * over its rate or size is stopped, and a request while the same one still waits is answered with
 * an error without reaching the bridge.
 */
export class FrameTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private started = false;
  private stopped = false;
  private readonly limiter: AppLimiter = createAppLimiter(APP_LIMITS, () => performance.now());

  constructor(
    private readonly target: Window,
    private readonly origin: string,
    /** The proxy removed the app because it navigated away from its document. */
    private readonly onNavigated: () => void,
    /** The app went over a limit of what it may send (the proxy stopped it, or this transport did). */
    private readonly onStopped: (limit: AppLimit) => void,
    private readonly host: Window = window,
  ) {}

  private readonly listener = (event: MessageEvent) => {
    if (event.source !== this.target || event.origin !== this.origin || this.stopped) return;
    const data: unknown = event.data;
    const method = typeof data === 'object' && data !== null ? (data as { method?: unknown }).method : undefined;
    if (method === APP_NAVIGATED_METHOD) {
      this.onNavigated();
      return;
    }
    const limit = method === APP_STOPPED_METHOD ? (data as { params?: { limit?: unknown } }).params?.limit : undefined;
    const verdict = method === APP_STOPPED_METHOD ? { kind: 'stop' as const, limit: LIMITS.find((l) => l === limit) ?? 'rate' } : this.limiter.inbound(data);
    if (verdict.kind === 'stop') {
      this.stop(verdict.limit);
      return;
    }
    if (verdict.kind === 'refuse') {
      this.target.postMessage(verdict.reply, this.origin);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(data);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  };

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.host.addEventListener('message', this.listener);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.stopped) return;
    this.limiter.outbound(message);
    this.target.postMessage(message, this.origin);
  }

  /** Hears nothing more from the app, and says why once. */
  private stop(limit: AppLimit): void {
    this.stopped = true;
    this.host.removeEventListener('message', this.listener);
    this.onStopped(limit);
  }

  async close(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.host.removeEventListener('message', this.listener);
    this.onclose?.();
  }
}

/** The origin a sandbox URL is served from (for harbor-app: the scheme is registered as standard, so it has one). */
export function sandboxOrigin(sandboxUrl: string): string {
  return new URL(sandboxUrl).origin;
}
