/**
 * Binds the contract (preload/contract/) to the Host over Electron IPC. One invoke channel, one
 * event channel. Every call is checked here before it reaches the dispatcher: the sender must be
 * the app's own top-level frame (an iframe or a page the window was tricked into loading gets
 * nothing), the envelope must have the contract's shape, and every outcome — refusal, bad payload,
 * a handler that throws — returns as `{ ok: false, error }` data: a thrown Error through
 * ipcMain.handle reaches the renderer as a bare string.
 *
 * Only types come from electron, so this module runs (and is tested) under plain Node.
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents, WebFrameMain } from 'electron';
import { InvokeEnvelope, IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, type Result } from '../preload/contract';
import { toErrorData } from './host/errors';
import type { HostEvents } from './host/events';
import { toDisposable, type Disposable } from './host/lifecycle';

export type SenderFrame = Pick<WebFrameMain, 'url' | 'parent'>;
export type Dispatcher = (command: unknown, payload: unknown) => Promise<Result<unknown>>;

export interface IpcBindingDeps {
  readonly ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  readonly dispatch: Dispatcher;
  /** True only for the app's own top-level frame; see `isAppTopFrame`. */
  readonly isTrustedSender: (frame: SenderFrame | null | undefined) => boolean;
}

/**
 * The sender check: a frame that still exists (Electron gives null once it navigated away or was
 * destroyed), is the top-level frame (`parent === null`), and shows the app's own page.
 */
export function isAppTopFrame(frame: SenderFrame | null | undefined, isAppUrl: (url: string) => boolean): boolean {
  try {
    return frame !== null && frame !== undefined && frame.parent === null && isAppUrl(frame.url);
  } catch {
    // A frame disposed between the message and this check throws on access: not trusted.
    return false;
  }
}

/** Handles one invoke. Never throws: everything comes back as Result data. */
export async function handleInvoke(
  deps: Pick<IpcBindingDeps, 'dispatch' | 'isTrustedSender'>,
  event: Pick<IpcMainInvokeEvent, 'senderFrame'>,
  envelope: unknown,
): Promise<Result<unknown>> {
  try {
    if (!deps.isTrustedSender(event.senderFrame)) {
      return {
        ok: false,
        error: { code: 'FORBIDDEN', message: 'Refused: only the Harbor window itself may call Harbor.' },
      };
    }
    const parsed = InvokeEnvelope.safeParse(envelope);
    if (!parsed.success) {
      return {
        ok: false,
        error: { code: 'BAD_REQUEST', message: 'Malformed request: expected { command, payload }.' },
      };
    }
    return await deps.dispatch(parsed.data.command, parsed.data.payload);
  } catch (error) {
    return { ok: false, error: toErrorData(error) };
  }
}

/** Registers the one invoke handler; disposing removes it. */
export function bindIpc(deps: IpcBindingDeps): Disposable {
  deps.ipcMain.handle(IPC_INVOKE_CHANNEL, (event, envelope: unknown) => handleInvoke(deps, event, envelope));
  return toDisposable(() => deps.ipcMain.removeHandler(IPC_INVOKE_CHANNEL));
}

/** Sends every Host event to one window as `{ event, payload }`; disposing stops it. */
export function forwardEvents(
  host: { readonly events: Pick<HostEvents, 'on'> },
  webContents: Pick<WebContents, 'send' | 'isDestroyed'>,
): Disposable {
  return host.events.on((event, payload) => {
    // A window closing while the Host still emits is normal, not an error.
    if (webContents.isDestroyed()) return;
    webContents.send(IPC_EVENT_CHANNEL, { event, payload });
  });
}
