import {
  commands,
  type CommandName,
  type CommandResponse,
  type Commands,
  type Result,
} from '../preload/contract';
import { toErrorData } from './host/errors';
import type { z } from 'zod';

export type CommandHandlers = {
  [K in CommandName]: (request: z.output<Commands[K]['request']>) => Promise<CommandResponse<K>>;
};

/**
 * The one place a command from outside (Electron IPC or the browser-mode WebSocket) enters main:
 * unknown commands are refused, every payload is validated against the contract, and every outcome
 * — including a thrown error — comes back as data.
 */
export function createDispatcher(handlers: CommandHandlers) {
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
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`);
      return {
        ok: false,
        error: { code: 'BAD_REQUEST', message: `Invalid payload for ${name}: ${problems.join('; ')}` },
      };
    }
    try {
      const handler = handlers[name] as (request: unknown) => Promise<unknown>;
      return { ok: true, value: await handler(parsed.data) };
    } catch (error) {
      return { ok: false, error: toErrorData(error) };
    }
  };
}

export type Dispatch = ReturnType<typeof createDispatcher>;
