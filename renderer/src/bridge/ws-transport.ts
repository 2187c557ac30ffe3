/**
 * The contract's Transport over browser mode's WebSocket: requests are `{id, command, payload}`,
 * replies `{id, result}`, Host events `{event, payload}` (schemas in preload/contract/api.ts).
 * It never reconnects on its own: a restarted `harbor web` has a new token and a new URL.
 */
import { WsServerFrame, type Transport } from '../../../preload/contract';
import type { BridgeStatus, StatusSource } from './status';

type ServerFrame = ReturnType<typeof WsServerFrame.parse>;
type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void };
type EventListener = (event: string, payload: unknown) => void;

const LOST =
  'The connection to Harbor closed. If "harbor web" was stopped, start it again and open the new URL it prints.';
const REFUSED =
  'Harbor refused the connection. Open the exact URL "harbor web" printed (it carries this launch\'s access token).';

export class WebSocketTransport implements Transport, StatusSource {
  private readonly socket: WebSocket;
  private readonly pending = new Map<number, Pending>();
  private readonly eventListeners = new Set<EventListener>();
  private readonly statusListeners = new Set<() => void>();
  private readonly opened: Promise<void>;
  private current: BridgeStatus = { state: 'connecting' };
  private nextId = 1;
  private everOpened = false;

  constructor(url: string, createSocket: (url: string) => WebSocket = (u) => new WebSocket(u)) {
    this.socket = createSocket(url);
    this.opened = new Promise<void>((resolve, reject) => {
      this.socket.addEventListener('open', () => {
        this.everOpened = true;
        this.setStatus({ state: 'open' });
        resolve();
      });
      this.socket.addEventListener('close', () => {
        // A handshake refused with 401/403 surfaces only as a close before open.
        const reason = this.everOpened ? LOST : REFUSED;
        this.setStatus({ state: 'closed', reason });
        reject(new Error(reason));
        for (const request of this.pending.values()) request.reject(new Error(reason));
        this.pending.clear();
      });
    });
    this.opened.catch(() => undefined); // observed by invoke(); an unawaited rejection is not an error
    this.socket.addEventListener('message', (message) => this.onMessage(message.data));
  }

  async invoke(command: string, payload: unknown): Promise<unknown> {
    await this.opened;
    // After a close, a send would be dropped silently and the caller would wait forever.
    if (this.current.state === 'closed') throw new Error(this.current.reason);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, command, payload }));
    });
  }

  subscribe(listener: EventListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  status(): BridgeStatus {
    return this.current;
  }

  onStatus(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private setStatus(status: BridgeStatus): void {
    this.current = status;
    for (const listener of [...this.statusListeners]) listener();
  }

  private onMessage(data: unknown): void {
    if (typeof data !== 'string') return;
    let frame: ServerFrame;
    try {
      frame = WsServerFrame.parse(JSON.parse(data));
    } catch {
      return; // not ours to interpret; the server only sends schema-valid frames
    }
    if ('id' in frame) {
      const request = this.pending.get(frame.id);
      this.pending.delete(frame.id);
      request?.resolve(frame.result);
    } else {
      for (const listener of [...this.eventListeners]) listener(frame.event, frame.payload);
    }
  }
}
