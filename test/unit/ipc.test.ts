import { pathToFileURL } from 'node:url';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, type AppInfo } from '../../preload/contract';
import { createDispatcher, type CommandHandlers } from '../../main/dispatch';
import { HarborError } from '../../main/host/errors';
import { bindIpc, forwardEvents, isAppTopFrame, type SenderFrame } from '../../main/ipc';
import { STOPPED_SUMMARY } from '../helpers/server-summary';
import { checkedEvents } from '../helpers/checked-events';

// main/ipc.ts needs only electron's types; main/window.ts (for isAppUrl) imports BrowserWindow.
vi.mock('electron', () => ({ BrowserWindow: class {} }));
const { isAppUrl } = await import('../../main/window');

const APP_URL = pathToFileURL('/opt/Harbor/resources/app.asar/out/renderer/index.html').href;

const info: AppInfo = {
  name: 'Harbor',
  version: '0.0.0-test',
  mode: 'electron',
  configPath: '/tmp/harbor.json',
  dataDir: '/tmp',
  platform: 'linux',
  versions: { node: '24.0.0' },
  configProblems: [],
};

const summary = STOPPED_SUMMARY;

function setup() {
  const calls: string[] = [];
  // Only the commands these tests exercise; the contract grows, these stay.
  const handlers: Partial<CommandHandlers> = {
    'app.info': async () => {
      calls.push('app.info');
      return info;
    },
    'servers.list': async () => {
      calls.push('servers.list');
      throw new Error('disk on fire');
    },
    'servers.restart': async ({ name }) => {
      calls.push(`servers.restart ${name}`);
      throw new HarborError('SERVER_NOT_FOUND', `No server named "${name}".`);
    },
    'servers.stop': async ({ name }) => {
      calls.push(`servers.stop ${name}`);
      return { ...summary, name };
    },
  };
  type Handler = (event: { senderFrame: SenderFrame | null }, envelope: unknown) => Promise<unknown>;
  const registered = new Map<string, Handler>();
  const ipcMain = {
    handle: (channel: string, handler: Handler) => {
      if (registered.has(channel)) throw new Error(`second handler for ${channel}`);
      registered.set(channel, handler);
    },
    removeHandler: (channel: string) => {
      registered.delete(channel);
    },
  };
  const binding = bindIpc({
    ipcMain: ipcMain as unknown as Parameters<typeof bindIpc>[0]['ipcMain'],
    dispatch: createDispatcher(handlers as CommandHandlers),
    isTrustedSender: (frame) => isAppTopFrame(frame, (url) => isAppUrl(url, APP_URL)),
  });
  onTestFinished(() => binding.dispose());
  const invoke = (senderFrame: SenderFrame | null, envelope: unknown) => {
    const handler = registered.get(IPC_INVOKE_CHANNEL);
    if (!handler) throw new Error('no handler registered');
    return handler({ senderFrame }, envelope);
  };
  return { calls, registered, binding, invoke };
}

const topFrame = (url = APP_URL): SenderFrame => ({ url, parent: null });
const subFrame = (url = APP_URL): SenderFrame => ({ url, parent: topFrame() as SenderFrame['parent'] });

describe('bindIpc', () => {
  it('registers exactly one handler, on the contract channel, and removes it on dispose', async () => {
    const { registered, binding } = setup();
    expect([...registered.keys()]).toEqual([IPC_INVOKE_CHANNEL]);
    await binding.dispose();
    expect(registered.size).toBe(0);
  });

  it('passes a valid app.info from the app frame to the dispatcher', async () => {
    const { invoke, calls } = setup();
    await expect(invoke(topFrame(), { command: 'app.info', payload: {} })).resolves.toEqual({ ok: true, value: info });
    await expect(invoke(topFrame(`${APP_URL}#/settings`), { command: 'app.info', payload: {} })).resolves.toMatchObject({ ok: true });
    expect(calls).toEqual(['app.info', 'app.info']);
  });

  it.each([
    ['a foreign page', topFrame('https://evil.example/')],
    ['another local file', topFrame('file:///tmp/evil.html')],
    ['a subframe of the app', subFrame()],
    ['a frame that is gone', null],
  ])('refuses %s with FORBIDDEN, without dispatching', async (_label, frame) => {
    const { invoke, calls } = setup();
    const result = await invoke(frame, { command: 'app.info', payload: {} });
    expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(calls).toEqual([]);
  });

  it('refuses a frame that throws when inspected (disposed mid-call)', async () => {
    const { invoke } = setup();
    const disposed = {
      parent: null,
      get url(): string {
        throw new Error('Render frame was disposed before WebFrameMain could be accessed');
      },
    };
    await expect(invoke(disposed, { command: 'app.info', payload: {} })).resolves.toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
  });

  it('answers an unknown command with UNKNOWN_COMMAND', async () => {
    const { invoke, calls } = setup();
    await expect(invoke(topFrame(), { command: 'fs.readFile', payload: { path: '/etc/passwd' } })).resolves.toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_COMMAND' },
    });
    await expect(invoke(topFrame(), { command: '__proto__', payload: {} })).resolves.toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_COMMAND' },
    });
    expect(calls).toEqual([]);
  });

  it('answers a bad payload or a malformed envelope with BAD_REQUEST', async () => {
    const { invoke, calls } = setup();
    for (const envelope of [
      { command: 'servers.stop', payload: { name: 42 } },
      { command: 'servers.stop', payload: { name: 'x', extra: true } },
      { command: 'app.info', payload: { unexpected: 1 } },
      { command: 'app.info', payload: {}, smuggled: 'x' },
      'app.info',
      null,
      undefined,
    ]) {
      await expect(invoke(topFrame(), envelope), JSON.stringify(envelope)).resolves.toMatchObject({
        ok: false,
        error: { code: 'BAD_REQUEST' },
      });
    }
    expect(calls).toEqual([]);
  });

  it('returns a throwing handler as { ok: false } data, keeping a HarborError code', async () => {
    const { invoke, calls } = setup();
    const thrown = await invoke(topFrame(), { command: 'servers.list', payload: {} });
    expect(thrown).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(thrown)).not.toContain(' at ');
    await expect(invoke(topFrame(), { command: 'servers.restart', payload: { name: 'ghost' } })).resolves.toEqual({
      ok: false,
      error: { code: 'SERVER_NOT_FOUND', message: 'No server named "ghost".' },
    });
    await expect(invoke(topFrame(), { command: 'servers.stop', payload: { name: 'notes' } })).resolves.toEqual({
      ok: true,
      value: summary,
    });
    expect(calls).toEqual(['servers.list', 'servers.restart ghost', 'servers.stop notes']);
  });
});

describe('forwardEvents', () => {
  it('sends each Host event as { event, payload } until disposed, skipping a destroyed window', async () => {
    const events = checkedEvents();
    const sent: unknown[][] = [];
    let destroyed = false;
    const webContents = {
      send: (channel: string, ...args: unknown[]) => {
        sent.push([channel, ...args]);
      },
      isDestroyed: () => destroyed,
    };
    const forwarding = forwardEvents({ events }, webContents);
    const payload = { name: 'notes', reason: 'state' as const };
    events.emit('servers.changed', payload);
    expect(sent).toEqual([[IPC_EVENT_CHANNEL, { event: 'servers.changed', payload }]]);

    destroyed = true;
    events.emit('servers.changed', payload);
    expect(sent).toHaveLength(1);

    destroyed = false;
    await forwarding.dispose();
    events.emit('servers.changed', payload);
    expect(sent).toHaveLength(1);
    expect(events.listenerCount).toBe(0);
  });
});
