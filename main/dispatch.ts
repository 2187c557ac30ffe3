import {
  commands,
  type CommandName,
  type CommandResponse,
  type Commands,
  type Result,
} from '../preload/contract';
import { assertMatchesContract, contractChecksOn, describeIssues } from './host/contract-checks';
import { toErrorData } from './host/errors';
import type { z } from 'zod';

export type CommandHandlers = {
  [K in CommandName]: (request: z.output<Commands[K]['request']>) => Promise<CommandResponse<K>>;
};

export interface DispatcherOptions {
  /** Check every response against the command's response schema (see contract-checks.ts for the default). */
  readonly checkResponses?: boolean;
}

/**
 * The one place a command from outside (Electron IPC or the browser-mode WebSocket) enters main:
 * unknown commands are refused, every payload is validated against the contract, and every outcome
 * — including a thrown error — comes back as data. With response checks on, a handler whose answer
 * drifts from the contract returns INTERNAL naming the command and the paths.
 */
export function createDispatcher(handlers: CommandHandlers, options: DispatcherOptions = {}) {
  const checkResponses = options.checkResponses ?? contractChecksOn();
  return async function dispatch(command: unknown, payload: unknown): Promise<Result<unknown>> {
    if (typeof command !== 'string' || !Object.hasOwn(commands, command)) {
      return {
        ok: false,
        error: { code: 'UNKNOWN_COMMAND', message: `Unknown command: ${String(command).slice(0, 80)}` },
      };
    }
    const name = command as CommandName;
    const parsed = commands[name].request.safeParse(payload ?? {});
    if (!parsed.success) {
      return {
        ok: false,
        error: { code: 'BAD_REQUEST', message: `Invalid payload for ${name}: ${describeIssues(parsed.error, '(payload)')}` },
      };
    }
    try {
      const handler = handlers[name] as (request: unknown) => Promise<unknown>;
      const value = await handler(parsed.data);
      if (checkResponses) assertMatchesContract(commands[name].response, value, `The response of ${name}`);
      return { ok: true, value };
    } catch (error) {
      return { ok: false, error: toErrorData(error) };
    }
  };
}

export type Dispatch = ReturnType<typeof createDispatcher>;
