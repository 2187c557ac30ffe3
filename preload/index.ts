/**
 * The sandboxed preload: exposes `window.harbor`, built from the contract, and nothing else. No raw
 * ipcRenderer reaches the page and the page never names a channel. Sandboxed preloads can require
 * only a few electron modules, so this file is bundled to CJS with the contract (and zod) inlined;
 * `node scripts/package-layout-check.mjs` and test/unit/preload.test.ts check that.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { buildApi, EventEnvelope, IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, type Transport } from './contract';

const transport: Transport = {
  invoke: (command, payload) => ipcRenderer.invoke(IPC_INVOKE_CHANNEL, { command, payload }),
  subscribe(listener) {
    const onEvent = (_event: IpcRendererEvent, envelope: unknown) => {
      const parsed = EventEnvelope.safeParse(envelope);
      if (parsed.success) listener(parsed.data.event, parsed.data.payload);
    };
    ipcRenderer.on(IPC_EVENT_CHANNEL, onEvent);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, onEvent);
    };
  },
};

contextBridge.exposeInMainWorld('harbor', buildApi(transport));
