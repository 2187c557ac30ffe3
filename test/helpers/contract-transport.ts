/**
 * The contract's Transport answered in memory, for tests of the renderer (and anything else that
 * talks through `buildApi`). The test scripts an answer per command; the transport holds every
 * message to the real contract, as the Host would be held:
 *
 * - a request the renderer sends must satisfy the command's request schema,
 * - an answer the test scripted must satisfy the command's response schema (a failure, the
 *   contract's error shape),
 * - an event the test emits must satisfy the event's schema.
 *
 * A mismatch fails the test loudly, naming the command (or event) and the path in the payload:
 * `emit` throws at once; a bad request or answer reaches the code under test as an INTERNAL error
 * (as a broken Host would) and is also recorded, and the `afterEach` below fails the test with it.
 * Canned data that does not match the contract is a bug in the test: fix the data, not the check.
 */
import { afterEach } from 'vitest';
import type { z } from 'zod';
import {
  buildApi,
  commands,
  events,
  HarborErrorData,
  type CommandName,
  type CommandResponse,
  type Commands,
  type ErrorCode,
  type EventName,
  type Events,
  type HarborApi,
  type Transport,
} from '../../preload/contract';

/** A request as the Host's handler receives it: validated and parsed. */
export type RequestOf<K extends CommandName> = z.output<Commands[K]['request']>;
export type EventInput<K extends EventName> = z.input<Events[K]>;

/** A scripted `{ ok: false }` answer: return `failure(code, message)` from a handler. */
export class Failure {
  constructor(readonly error: HarborErrorData) {}
}

export function failure(code: ErrorCode, message: string, extra: Pick<HarborErrorData, 'detail' | 'changed'> = {}): Failure {
  return new Failure({ code, message, ...extra });
}

export type Answer<K extends CommandName> = CommandResponse<K> | Failure;
export type Handler<K extends CommandName> = (request: RequestOf<K>) => Answer<K> | Promise<Answer<K>>;
export type Handlers = { [K in CommandName]?: Handler<K> };

export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

/** Every transport with violations not yet reported; drained after each test. */
const unreported = new Set<ContractTransport>();

afterEach(() => {
  const found = [...unreported].flatMap((transport) => transport.takeViolations());
  if (found.length > 0) throw new ContractViolation(`The test broke the contract:\n${found.map((v) => `  - ${v}`).join('\n')}`);
});

function problems(error: z.ZodError): string {
  return error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join('; ');
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(the whole payload)';
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('');
}

export class ContractTransport implements Transport {
  /** Every command sent, with its payload exactly as the renderer sent it, in order. */
  readonly calls: Array<{ command: string; payload: unknown }> = [];
  private readonly violations: string[] = [];
  private readonly listeners = new Set<(event: string, payload: unknown) => void>();

  constructor(public handlers: Handlers = {}) {}

  /** The typed api over this transport, as `window.harbor` is built in the app. */
  get api(): HarborApi {
    return buildApi(this);
  }

  async invoke(command: string, payload: unknown): Promise<unknown> {
    const request = payload ?? {};
    this.calls.push({ command, payload: request });
    if (!Object.hasOwn(commands, command)) throw this.violation(`"${command}" is not a command of the contract`);
    const name = command as CommandName;
    const parsed = commands[name].request.safeParse(request);
    if (!parsed.success) throw this.violation(`request of ${name} does not match its schema: ${problems(parsed.error)}`);
    const handler = this.handlers[name] as ((request: unknown) => unknown) | undefined;
    if (!handler) return { ok: false, error: { code: 'UNKNOWN_COMMAND', message: `No handler for ${name} in this test.` } };
    let answer: unknown;
    try {
      answer = await handler(parsed.data);
    } catch (error) {
      // As the Host's dispatcher does: a thrown error comes back as data.
      return { ok: false, error: { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) } };
    }
    if (answer instanceof Failure) {
      const checked = HarborErrorData.safeParse(answer.error);
      if (!checked.success) throw this.violation(`error answer of ${name} does not match the error schema: ${problems(checked.error)}`);
      return { ok: false, error: answer.error };
    }
    const checked = commands[name].response.safeParse(answer);
    if (!checked.success) throw this.violation(`answer of ${name} does not match its response schema: ${problems(checked.error)}`);
    // The value as scripted (the Host sends its value as it is; nothing strips it on the way).
    return { ok: true, value: answer };
  }

  subscribe(listener: (event: string, payload: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Delivers a Host event to every subscriber; a payload that breaks the contract throws here. */
  emit<K extends EventName>(event: K, payload: EventInput<K>): void {
    if (!Object.hasOwn(events, event)) throw new ContractViolation(`"${event}" is not an event of the contract`);
    const checked = events[event].safeParse(payload);
    if (!checked.success) throw new ContractViolation(`event ${event} does not match its schema: ${problems(checked.error)}`);
    for (const listener of [...this.listeners]) listener(event, payload);
  }

  /** The payloads sent with one command, in order. */
  sent<K extends CommandName>(command: K): Array<Record<string, unknown>> {
    return this.calls.filter((c) => c.command === command).map((c) => c.payload as Record<string, unknown>);
  }

  /** Violations seen so far, handed over (a test that provokes one on purpose takes it here). */
  takeViolations(): string[] {
    unreported.delete(this);
    return this.violations.splice(0);
  }

  private violation(message: string): ContractViolation {
    this.violations.push(message);
    unreported.add(this);
    return new ContractViolation(message);
  }
}
