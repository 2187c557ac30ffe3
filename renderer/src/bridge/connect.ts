/**
 * The renderer's one way to reach the Host. In Electron the preload has put `window.harbor` there
 * (contextBridge); in a browser (`harbor web`) we build the same HarborApi over a WebSocket. The
 * rest of the app sees only `Bridge` and never knows which door it came through.
 */
import { buildApi, type HarborApi } from '../../../preload/contract';
import { ALWAYS_OPEN, type StatusSource } from './status';
import { takeToken, type TokenEnvironment } from './token';
import { WebSocketTransport } from './ws-transport';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in browser mode. */
    readonly harbor?: HarborApi;
  }
}

export interface Bridge extends StatusSource {
  readonly kind: 'electron' | 'web';
  readonly api: HarborApi;
}

export interface BridgeEnvironment extends TokenEnvironment {
  readonly harbor?: HarborApi;
  readonly location: TokenEnvironment['location'] & Pick<Location, 'host' | 'protocol'>;
}

export function connectBridge(env: BridgeEnvironment): Bridge {
  if (env.harbor) return { kind: 'electron', api: env.harbor, ...ALWAYS_OPEN };
  const token = takeToken(env);
  if (!token) return missingToken();
  const scheme = env.location.protocol === 'https:' ? 'wss' : 'ws';
  const transport = new WebSocketTransport(`${scheme}://${env.location.host}/ws?token=${encodeURIComponent(token)}`);
  return {
    kind: 'web',
    api: buildApi(transport),
    status: () => transport.status(),
    onStatus: (listener) => transport.onStatus(listener),
  };
}

/** Opened without the printed URL's token: say so plainly instead of failing every call. */
function missingToken(): Bridge {
  const reason =
    'This page needs the access token from the URL that "harbor web" printed (it ends in #token=…). Open that exact URL.';
  const status = { state: 'closed', reason } as const;
  const api = buildApi({
    invoke: () => Promise.reject(new Error(reason)),
    subscribe: () => () => undefined,
  });
  return { kind: 'web', api, status: () => status, onStatus: () => () => undefined };
}
