import type { EventName } from '../../../preload/contract';
import type { HostEvents } from '../events';
import type { Disposable } from '../lifecycle';
import type { Redactor } from '../secrets/redactor';

/**
 * How a value is cleaned on its way out of the Host:
 * - `redact`: Harbor's own words about state (server summaries, decisions, error states): known
 *   secret values and anything shaped like a credential (`Bearer …`, `Authorization: …`).
 * - `mask`: what servers, models and people wrote (tool results, catalogs, conversations): known
 *   secret values only, so prose stays intact.
 * - `asWritten`: passed on unchanged; every use says why where the policy is written.
 */
export type ExitKind = 'redact' | 'mask' | 'asWritten';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any method signature may pass the exit
type AnyMethod = (...args: any[]) => unknown;

/** One exit kind per method a door lets out; naming anything that is not a method is a type error. */
export type ExitPolicy<T, K extends keyof T> = { readonly [P in K]: T[P] extends AnyMethod ? ExitKind : never };

/**
 * The one exit of the Host: every method a front door can call (a "door") and every event it can
 * hear passes here, so no path can forget to clean what it returns. Errors always leave redacted:
 * a failure's message can quote a server's stderr. A door is built from a policy naming each
 * method and how its result is cleaned; methods not named do not exist on the door.
 */
export class RedactionExit {
  constructor(private readonly redactor: Redactor) {}

  clean<T>(kind: ExitKind, value: T): T {
    if (kind === 'redact') return this.redactor.redactDeep(value);
    if (kind === 'mask') return this.redactor.maskDeep(value);
    return value;
  }

  /** The methods `policy` names, bound to `impl`; results cleaned as the policy says, errors redacted. */
  door<T extends object, K extends keyof T>(impl: T, policy: ExitPolicy<T, K>): Pick<T, K> {
    const door: Partial<Record<K, AnyMethod>> = {};
    for (const key of Object.keys(policy) as K[]) {
      const kind = policy[key] as ExitKind;
      const method = impl[key] as AnyMethod;
      door[key] = (...args: unknown[]) => this.pass(kind, () => method.apply(impl, args));
    }
    return door as unknown as Pick<T, K>;
  }

  /**
   * Forwards every event of the Host's inner bus to the one front doors listen to, its payload
   * cleaned as `policy` says for that event (a Record over every event name: a new event cannot
   * be added without deciding how it leaves).
   */
  forwardEvents(inner: HostEvents, outer: HostEvents, policy: Readonly<Record<EventName, ExitKind>>): Disposable {
    return inner.on((event, payload) => {
      // Cleaned only for an event someone hears (cleaning walks the payload).
      if (outer.listens(event)) outer.emit(event, this.clean(policy[event], payload));
    });
  }

  /** Runs a door's method, keeping a synchronous method synchronous. */
  private pass(kind: ExitKind, run: () => unknown): unknown {
    let result: unknown;
    try {
      result = run();
    } catch (error) {
      throw this.redactor.redactError(error);
    }
    if (!(result instanceof Promise)) return this.clean(kind, result);
    return result.then(
      (value: unknown) => this.clean(kind, value),
      (error: unknown) => {
        throw this.redactor.redactError(error);
      },
    );
  }
}
