// @vitest-environment happy-dom
/**
 * #32 goal 5: a call of a tool whose app the page already looked up shows the app at once, not a
 * socket round trip later (the app's first paint waited for `apps.forTool` before its frame could open).
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppToolUi } from '../../../preload/contract';
import { useToolApp } from '../../../renderer/src/features/apps/use-tool-app';
import { ContractTransport } from '../../helpers/contract-transport';
import { serverSummary } from '../../helpers/server-summary';
import { WithHost } from './with-host';
import { baseHandlers, empty, layOutMessageLists, renderPage } from './chat-fixtures';

afterEach(cleanup);

function Probe({ live }: { readonly live: boolean }) {
  return <p>app: {useToolApp('probe', 'show', live) ?? 'none'}</p>;
}

const APP: AppToolUi = { known: true, resourceUri: 'ui://probe/app' };
/** An answer that has not come yet (the Host's reply still on its way). */
const never = () => new Promise<AppToolUi>(() => undefined);

/** One page (one api, as in the app); `show` mounts a new card (a new key) or none. */
function page(host: ContractTransport) {
  const view = render(<WithHost transport={host}>{null}</WithHost>);
  let card = 0;
  return {
    show(live: boolean | undefined, same = false) {
      if (!same) card += 1;
      view.rerender(<WithHost transport={host}>{live === undefined ? null : <Probe key={card} live={live} />}</WithHost>);
    },
  };
}

/** A page that asked once and was told the tool's app; the Host answers no more lookups after it. */
async function aPageThatLookedTheAppUp() {
  const host = new ContractTransport({ 'apps.forTool': () => APP });
  const p = page(host);
  p.show(true);
  await screen.findByText('app: ui://probe/app');
  p.show(undefined);
  host.handlers['apps.forTool'] = never;
  return p;
}

describe('a tool call shows the app its tool had before, at once', () => {
  it('a running call of a tool looked up before has its app on the first render, and keeps it when the call ends before the answer', async () => {
    const p = await aPageThatLookedTheAppUp();
    p.show(true);
    expect(screen.getByText('app: ui://probe/app')).toBeTruthy();
    // The call is done before the Host answered: the app stays (its frame is not torn down).
    p.show(false, true);
    expect(screen.getByText('app: ui://probe/app')).toBeTruthy();
  });

  it('a call that is not running (an old card) still waits for the Host: its server may be stopped', async () => {
    const p = await aPageThatLookedTheAppUp();
    p.show(false);
    expect(screen.getByText('app: none')).toBeTruthy();
  });

  it('what was said is forgotten when the server stops, and when the Host says the tool has no app', async () => {
    const host = new ContractTransport({ 'apps.forTool': () => APP });
    const p = page(host);
    p.show(true);
    await screen.findByText('app: ui://probe/app');
    host.handlers['apps.forTool'] = never;
    await act(async () => host.emit('servers.changed', { name: 'probe', reason: 'state', summary: serverSummary('probe', { state: { kind: 'stopped' } }) }));
    p.show(true);
    expect(screen.getByText('app: none')).toBeTruthy();

    host.handlers['apps.forTool'] = () => APP;
    p.show(true);
    await screen.findByText('app: ui://probe/app');
    host.handlers['apps.forTool'] = () => ({ known: true });
    p.show(true);
    await screen.findByText('app: none');
    host.handlers['apps.forTool'] = never;
    p.show(true);
    expect(screen.getByText('app: none')).toBeTruthy();
  });
});

describe('the Host names the app with the call it streams', () => {
  layOutMessageLists();
  it('the first call of a tool with an app opens the app before apps.forTool answers', async () => {
    const host: ContractTransport = new ContractTransport(
      baseHandlers({
        'chat.send': () => ({ conversationId: 'c1', turnId: 't1' }),
        'conversations.open': () => empty('c1', 'show'),
        'apps.forTool': never,
        'apps.open': () => new Promise<never>(() => undefined),
      }),
    );
    renderPage(host);
    const box = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'show' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(host.sent('chat.send')).toHaveLength(1));
    await act(async () =>
      host.emit('chat.toolInput', { conversationId: 'c1', turnId: 't1', toolCallId: 'call-1', server: 'probe', tool: 'show', text: '{"no', resourceUri: 'ui://probe/app' }),
    );
    expect(screen.getByRole('region', { name: 'App of probe for show' })).toBeTruthy();
    await waitFor(() => expect(host.sent('apps.open')).toEqual([{ server: 'probe', tool: 'show', conversationId: 'c1', toolCallId: 'call-1' }]));
  });
});
