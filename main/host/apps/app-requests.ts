/**
 * What each open app is waiting for on the Host: at most one request per app and key (a tool's
 * name) and a few in all, so an app cannot queue a pile of consent questions or server calls —
 * whatever the page in front of it let through. Every request gets the app's signal: when the app
 * closes, what it still waits for (a consent question on screen, a call in flight) is withdrawn.
 */
import { HarborError } from '../errors';

/** Requests one app may have waiting at once (across its keys). */
export const MAX_PENDING_PER_APP = 4;

interface AppWaiting {
  readonly controller: AbortController;
  readonly keys: Set<string>;
}

export class AppRequests {
  private readonly apps = new Map<string, AppWaiting>();

  /**
   * Starts a request of `instanceId` under `key` (refused at once when one with that key is still
   * waiting, or the app already waits for MAX_PENDING_PER_APP); `end` must be called when it settles.
   */
  begin(instanceId: string, key: string, what: string): { readonly signal: AbortSignal; readonly end: () => void } {
    let app = this.apps.get(instanceId);
    if (!app) {
      app = { controller: new AbortController(), keys: new Set() };
      this.apps.set(instanceId, app);
    }
    if (app.keys.has(key)) {
      throw new HarborError('BAD_REQUEST', `The app is already waiting for ${what}: Harbor takes one such request from an app at a time. Ask again once the first is answered.`);
    }
    if (app.keys.size >= MAX_PENDING_PER_APP) {
      throw new HarborError('BAD_REQUEST', `The app is already waiting for ${app.keys.size} requests: Harbor takes at most ${MAX_PENDING_PER_APP} from an app at a time. Ask again once one is answered.`);
    }
    app.keys.add(key);
    const waiting = app;
    return {
      signal: waiting.controller.signal,
      end: () => {
        waiting.keys.delete(key);
        if (waiting.keys.size === 0 && this.apps.get(instanceId) === waiting) this.apps.delete(instanceId);
      },
    };
  }

  /** How many requests an app is waiting for. */
  waiting(instanceId: string): number {
    return this.apps.get(instanceId)?.keys.size ?? 0;
  }

  /** The app is gone: everything it still waits for is withdrawn with `reason`. */
  withdraw(instanceId: string, reason: string): void {
    const app = this.apps.get(instanceId);
    if (!app) return;
    this.apps.delete(instanceId);
    app.controller.abort(new Error(reason));
  }
}
