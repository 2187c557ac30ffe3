import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { APP_NAVIGATED_METHOD } from '../../../../preload/contract';

/**
 * The bridge's wire to one app's sandbox proxy. It replaces the SDK's PostMessageTransport, which
 * checks only a message's source window and posts with targetOrigin "*": here a message counts
 * only when it comes from this frame's window AND from the sandbox origin, and every message goes
 * out addressed to that origin alone — if the frame were ever navigated elsewhere, nothing of the
 * bridge would reach the new page. Another app (or the app itself, posting to the top window
 * directly) is a different source and is ignored.
 */
export class FrameTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private started = false;

  constructor(
    private readonly target: Window,
    private readonly origin: string,
    /** The proxy removed the app because it navigated away from its document. */
    private readonly onNavigated: () => void,
    private readonly host: Window = window,
  ) {}

  private readonly listener = (event: MessageEvent) => {
    if (event.source !== this.target || event.origin !== this.origin) return;
    const data: unknown = event.data;
    if (typeof data === 'object' && data !== null && (data as { method?: unknown }).method === APP_NAVIGATED_METHOD) {
      this.onNavigated();
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
    this.target.postMessage(message, this.origin);
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
