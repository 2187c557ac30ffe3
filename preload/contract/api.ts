/**
 * Transports and the runtime api. The Electron preload and the browser-mode WebSocket bridge both
 * implement `Transport`; `buildApi` turns one into the typed `window.harbor`.
 */
import { z } from 'zod';
import { commands, type CommandName, type CommandRequest, type CommandResponse } from './commands';
import type { Result } from './errors';
import { events, type EventName, type EventPayload } from './events';

export const IPC_INVOKE_CHANNEL = 'harbor:invoke';
export const IPC_EVENT_CHANNEL = 'harbor:event';

/** Envelope on the invoke channel (Electron) and on the WebSocket (browser mode). */
export const InvokeEnvelope = z.object({ command: z.string(), payload: z.unknown() }).strict();
export const EventEnvelope = z.object({ event: z.string(), payload: z.unknown() }).strict();

/** WebSocket frames, browser mode. */
export const WsClientFrame = z
  .object({ id: z.number().int().nonnegative(), command: z.string(), payload: z.unknown() })
  .strict();
export const WsServerFrame = z.union([
  z.object({ id: z.number().int(), result: z.unknown() }).strict(),
  z.object({ event: z.string(), payload: z.unknown() }).strict(),
]);

export interface Transport {
  invoke(command: string, payload: unknown): Promise<unknown>;
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
}

type GroupOf<K extends string> = K extends `${infer G}.${string}` ? G : never;
type MethodsOf<K extends string, G extends string> = K extends `${G}.${infer M}` ? M : never;

export type HarborApi = {
  [G in GroupOf<CommandName>]: {
    [M in MethodsOf<CommandName, G>]: `${G}.${M}` extends infer K extends CommandName
      ? (request: CommandRequest<K>) => Promise<Result<CommandResponse<K>>>
      : never;
  };
} & {
  on: {
    [G in GroupOf<EventName>]: {
      [M in MethodsOf<EventName, G>]: `${G}.${M}` extends infer K extends EventName
        ? (listener: (payload: EventPayload<K>) => void) => () => void
        : never;
    };
  };
};

/**
 * Builds the typed `window.harbor` object from the contract over any transport. Results are
 * passed through as data; a transport failure becomes an `{ ok: false }` result, never a throw.
 */
export function buildApi(transport: Transport): HarborApi {
  const api: Record<string, Record<string, unknown>> = {};
  for (const name of Object.keys(commands)) {
    const [group, method] = name.split('.') as [string, string];
    (api[group] ??= {})[method] = async (request: unknown): Promise<Result<unknown>> => {
      try {
        return (await transport.invoke(name, request ?? {})) as Result<unknown>;
      } catch (error) {
        return {
          ok: false,
          error: { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) },
        };
      }
    };
  }
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  // One subscription to the transport, made on the first listener; it lasts as long as the page (the api is never torn down).
  let subscribed = false;
  const on: Record<string, Record<string, unknown>> = {};
  for (const name of Object.keys(events)) {
    const [group, method] = name.split('.') as [string, string];
    (on[group] ??= {})[method] = (listener: (payload: unknown) => void) => {
      if (!subscribed) {
        subscribed = true;
        transport.subscribe((event, payload) => {
          for (const l of listeners.get(event) ?? []) l(payload);
        });
      }
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    };
  }
  return { ...api, on } as unknown as HarborApi;
}
