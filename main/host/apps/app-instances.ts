/**
 * The apps that are open now, each under an unguessable id. The id is the app's identity for
 * everything it asks afterwards: its server, its conversation and its policy are looked up here,
 * never taken from the request, so an app cannot speak for another server or another conversation.
 * The id also names the app's sandbox page, so it is a capability: 128 random bits.
 */
import { randomBytes } from 'node:crypto';
import type { AppPolicy } from './app-policy';

export interface AppInstance {
  readonly id: string;
  readonly server: string;
  readonly uri: string;
  readonly tool?: string;
  readonly conversationId?: string;
  readonly toolCallId?: string;
  readonly policy: AppPolicy;
  /** The app's document as read when it was opened (the sandbox serves this copy). */
  readonly html: string;
  readonly openedAt: number;
}

/** More open apps than any screen shows; past it the oldest are forgotten (their frames get a clear error). */
export const MAX_OPEN_APPS = 256;

export class AppInstances {
  private readonly open = new Map<string, AppInstance>();

  constructor(private readonly limit = MAX_OPEN_APPS) {}

  add(instance: Omit<AppInstance, 'id'>): { added: AppInstance; evicted: readonly AppInstance[] } {
    const added: AppInstance = { ...instance, id: randomBytes(16).toString('base64url') };
    this.open.set(added.id, added);
    const evicted: AppInstance[] = [];
    for (const [id, oldest] of this.open) {
      if (this.open.size <= this.limit) break;
      this.open.delete(id);
      evicted.push(oldest);
    }
    return { added, evicted };
  }

  get(id: string): AppInstance | undefined {
    return this.open.get(id);
  }

  delete(id: string): AppInstance | undefined {
    const instance = this.open.get(id);
    this.open.delete(id);
    return instance;
  }

  get size(): number {
    return this.open.size;
  }
}
