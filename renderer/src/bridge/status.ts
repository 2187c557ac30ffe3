/** Whether the renderer can reach the Host. The Electron preload is always "open". */
export type BridgeStatus =
  | { readonly state: 'connecting' }
  | { readonly state: 'open' }
  | { readonly state: 'closed'; readonly reason: string };

export interface StatusSource {
  status(): BridgeStatus;
  onStatus(listener: () => void): () => void;
}

export const ALWAYS_OPEN: StatusSource = {
  status: () => OPEN,
  onStatus: () => () => undefined,
};

const OPEN: BridgeStatus = { state: 'open' };
