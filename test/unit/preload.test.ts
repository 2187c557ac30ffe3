import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { commands, IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, type HarborApi } from '../../preload/contract';

// A stand-in for the two electron modules a sandboxed preload may use, recording every call.
const electron = vi.hoisted(() => {
  type Listener = (event: unknown, ...args: unknown[]) => void;
  const exposed = new Map<string, unknown>();
  const listeners = new Map<string, Set<Listener>>();
  const invocations: unknown[][] = [];
  let nextInvoke: () => Promise<unknown> = () => Promise.resolve({ ok: true, value: 'answered' });
  return {
    exposed,
    listeners,
    invocations,
    setNextInvoke(fn: () => Promise<unknown>) {
      nextInvoke = fn;
    },
    emit(channel: string, ...args: unknown[]) {
      for (const l of listeners.get(channel) ?? []) l({ sender: 'ipc' }, ...args);
    },
    module: {
      contextBridge: {
        exposeInMainWorld: (key: string, api: unknown) => {
          exposed.set(key, api);
        },
      },
      ipcRenderer: {
        invoke: (...args: unknown[]) => {
          invocations.push(args);
          return nextInvoke();
        },
        on: (channel: string, listener: Listener) => {
          if (!listeners.has(channel)) listeners.set(channel, new Set());
          listeners.get(channel)!.add(listener);
        },
        removeListener: (channel: string, listener: Listener) => {
          listeners.get(channel)?.delete(listener);
        },
      },
    },
  };
});

vi.mock('electron', () => electron.module);
await import('../../preload/index');

const api = () => electron.exposed.get('harbor') as HarborApi;

describe('preload', () => {
  it('exposes exactly one object, window.harbor, with the contract groups and no raw IPC', () => {
    expect([...electron.exposed.keys()]).toEqual(['harbor']);
    const groups = new Set(Object.keys(commands).map((name) => name.split('.')[0]));
    expect(new Set(Object.keys(api()))).toEqual(new Set([...groups, 'on']));
    const text = JSON.stringify(Object.keys(api()));
    expect(text).not.toMatch(/ipc|invoke|send|require/i);
  });

  it('api.app.info invokes the contract channel with the { command, payload } envelope', async () => {
    electron.invocations.length = 0;
    await expect(api().app.info({})).resolves.toEqual({ ok: true, value: 'answered' });
    expect(electron.invocations).toEqual([[IPC_INVOKE_CHANNEL, { command: 'app.info', payload: {} }]]);
    await api().servers.stop({ name: 'notes' });
    expect(electron.invocations[1]).toEqual([IPC_INVOKE_CHANNEL, { command: 'servers.stop', payload: { name: 'notes' } }]);
  });

  it('turns a failed invoke into { ok: false } data', async () => {
    electron.setNextInvoke(() => Promise.reject(new Error('No handler registered for harbor:invoke')));
    await expect(api().app.info({})).resolves.toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    electron.setNextInvoke(() => Promise.resolve({ ok: true, value: 'answered' }));
  });

  it('listens on the event channel once, delivers well-formed events, and unsubscribes', () => {
    const seen: unknown[] = [];
    const seenToo: unknown[] = [];
    const off = api().on.servers.changed((payload) => seen.push(payload));
    const offToo = api().on.servers.changed((payload) => seenToo.push(payload));
    expect(electron.listeners.get(IPC_EVENT_CHANNEL)?.size).toBe(1);

    const payload = { name: 'notes', reason: 'state' };
    electron.emit(IPC_EVENT_CHANNEL, { event: 'servers.changed', payload });
    electron.emit(IPC_EVENT_CHANNEL, 'not an envelope');
    electron.emit(IPC_EVENT_CHANNEL, { event: 'other.event', payload });
    expect(seen).toEqual([payload]);
    expect(seenToo).toEqual([payload]);

    off();
    electron.emit(IPC_EVENT_CHANNEL, { event: 'servers.changed', payload });
    expect(seen).toHaveLength(1);
    expect(seenToo).toHaveLength(2);
    offToo();
  });
});

// The sandbox lets a preload require only a few electron modules: the build must inline the
// contract and zod. Checked on the electron-vite output when it exists (npm test builds first;
// scripts/package-layout-check.mjs checks the packaged copy too).
const builtPreload = join(import.meta.dirname, '..', '..', 'out', 'preload', 'index.cjs');
describe('built preload (out/preload/index.cjs)', () => {
  it.skipIf(!existsSync(builtPreload))('requires nothing but electron', () => {
    const code = readFileSync(builtPreload, 'utf8');
    const required = [...code.matchAll(/\brequire\(\s*(['"`])([^'"`]+)\1\s*\)/g)].map((m) => m[2]);
    expect(required.length).toBeGreaterThan(0);
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(code).not.toMatch(/\bimport\s*\(/);
  });
});
