/**
 * One browser tab's WebSocket: `{id, command, payload}` frames in, `{id, result}` frames out, where
 * result is the dispatcher's Result data. Anything malformed gets an error result (id -1 when the
 * frame had no usable id) — a bad frame never throws out of here and never closes the server.
 */
import type { RawData, WebSocket } from 'ws';
import { WsClientFrame, type Result } from '../../preload/contract';
import type { Dispatch } from '../dispatch';
import { toErrorData } from '../host/errors';

/** The id used in a reply to a frame whose own id could not be read. */
export const NO_ID = -1;

export function attachSession(socket: WebSocket, dispatch: Dispatch): void {
  socket.on('message', (data, isBinary) => {
    void handleFrame(socket, dispatch, data, isBinary);
  });
}

async function handleFrame(socket: WebSocket, dispatch: Dispatch, data: RawData, isBinary: boolean): Promise<void> {
  if (isBinary) {
    reply(socket, NO_ID, badRequest('Binary frames are not accepted; send JSON text frames.'));
    return;
  }
  let frame: unknown;
  try {
    frame = JSON.parse(rawToString(data));
  } catch {
    reply(socket, NO_ID, badRequest('The frame is not valid JSON.'));
    return;
  }
  const parsed = WsClientFrame.safeParse(frame);
  if (!parsed.success) {
    const id = readId(frame);
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(frame)'}: ${i.message}`).join('; ');
    reply(socket, id, badRequest(`Malformed frame, expected {id, command, payload}: ${problems}`));
    return;
  }
  const { id, command, payload } = parsed.data;
  let result: Result<unknown>;
  try {
    result = await dispatch(command, payload);
  } catch (error) {
    result = { ok: false, error: toErrorData(error) };
  }
  reply(socket, id, result);
}

function reply(socket: WebSocket, id: number, result: Result<unknown>): void {
  if (socket.readyState !== socket.OPEN) return;
  let text: string;
  try {
    text = JSON.stringify({ id, result });
  } catch (error) {
    text = JSON.stringify({ id, result: { ok: false, error: toErrorData(error) } });
  }
  socket.send(text);
}

function badRequest(message: string): Result<never> {
  return { ok: false, error: { code: 'BAD_REQUEST', message } };
}

function readId(frame: unknown): number {
  if (typeof frame === 'object' && frame !== null && 'id' in frame) {
    const id = (frame as { id: unknown }).id;
    if (typeof id === 'number' && Number.isInteger(id) && id >= 0) return id;
  }
  return NO_ID;
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
