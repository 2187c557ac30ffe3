/**
 * MCP Apps end to end, as a person uses them: Debian Chromium on `harbor web`, the published App
 * servers from npm (vanilla JS, React, the system monitor, the budget allocator) and the probe
 * fixture as child processes, the scripted model on 127.0.0.1. Chat → tool → the app renders in its
 * card and shows data only its bridge delivered; isolation is checked from inside the app's frame.
 */
import type { Frame } from '@playwright/test';
import { expectNoAxeViolations, goTo } from './servers-fixture';
import { collectErrors, screenshot, send } from './chat-fixture';
import { allowWhile, appActivity, expect, openChatPage, readyApp, test, toolCard } from './apps-fixture';

/**
 * A click on one of the probe's buttons. Dispatched rather than aimed: the app grows as it writes
 * what it heard, and the conversation keeps its bottom in view, so a button can move under a pointer.
 */
const press = (app: Frame, selector: string) => app.locator(selector).dispatchEvent('click');

// Several App servers and their apps on a shared 2-core machine: starting them can take a while.
test.describe.configure({ timeout: 180_000 });

/** The time an example app shows after its tool result arrived (they all print the ISO time). */
// Four real App servers, their frames and the person's answers: on a loaded 2-core machine one of
// these takes well over the default minute (seen at 60 s in CI and with two busy loops here).
test.describe.configure({ timeout: 180_000 });

const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/;

test('chat → tool → app: two frameworks and two richer apps render the data their bridge delivered; app-only tools stay away from the model', async ({ page, startApps }, testInfo) => {
  const harbor = await startApps({
    script: [
      { toolCalls: [{ name: 'vanilla__get-time' }, { name: 'react__get-time' }, { name: 'budget__get-budget-data' }, { name: 'monitor__get-system-info' }] },
      { text: 'Here are your apps.' },
    ],
  });
  const errors = collectErrors(page);
  await openChatPage(page, harbor.url);
  await send(page, 'Show me the apps');
  // Each call asks first (the servers are trusted, the tools are not read-only); the system monitor's
  // app then polls its app-only tool through the bridge — which asks too, under the same gate.
  // Done when the model answered and the monitor's app has polled (a loaded machine may take a while for either).
  const asked = await allowWhile(page, async (allowed) => allowed.length >= 5 && (await page.getByText('Here are your apps.').count()) > 0);
  expect(asked).toEqual([
    'Allow vanilla to run “get-time”?',
    'Allow react to run “get-time”?',
    'Allow budget to run “get-budget-data”?',
    'Allow monitor to run “get-system-info”?',
    'Allow monitor to run “poll-system-stats”?',
  ]);

  // The model was offered the four tools, never the monitor's app-only poll.
  const offered = harbor.model.requests[0]!.toolNames;
  expect(offered).toEqual(expect.arrayContaining(['vanilla__get-time', 'react__get-time', 'budget__get-budget-data', 'monitor__get-system-info']));
  expect(offered).not.toContain('monitor__poll-system-stats');
  const results = harbor.model.requests[1]!.toolResults.map((r) => r.content);

  for (const [server, index] of [['vanilla', 0], ['react', 1]] as const) {
    const { app } = await readyApp(page, server, 'get-time');
    // The app's HTML came from the server without a time; the time arrived as its tool result.
    await expect(app.locator('code').first()).toHaveText(ISO);
    expect(results[index]).toContain(await app.locator('code').first().textContent());
  }

  const { app: budget } = await readyApp(page, 'budget', 'get-budget-data');
  await expect(budget.getByText('Budget Allocator')).toBeVisible();
  await expect(budget.getByText('Allocated: $100,000 / $100,000')).toBeVisible();
  await expect(budget.locator('canvas').first()).toBeVisible();

  const { app: monitor } = await readyApp(page, 'monitor', 'get-system-info');
  await expect(monitor.getByText('System Monitor')).toBeVisible();
  // Its app polled its app-only tool (allowed above): live stats arrived through the bridge.
  await expect(monitor.locator('body')).toContainText(/Memory\s+\d+%/i);
  await screenshot(page, 'apps-chat-cards', testInfo);

  // The frames size to their content: no scrollbar inside the app, no blank band below it.
  for (const [server, tool] of [['vanilla', 'get-time'], ['budget', 'get-budget-data']] as const) {
    const { region, app } = await readyApp(page, server, tool);
    await expect
      .poll(async () => {
        const box = (await region.boundingBox())!;
        const inner = await app.evaluate(() => ({ scroll: document.documentElement.scrollHeight, client: document.documentElement.clientHeight }));
        return inner.scroll <= inner.client + 1 && Math.abs(box.height - 2 - inner.client) <= 1 && inner.client > 150;
      }, { message: `${server}'s frame fits its content`, timeout: 20_000 })
      .toBe(true);
  }

  await goTo(page, 'Activity');
  // The list fills from the Host after the page opens: wait for the lines, do not read it once.
  for (const expected of [
    /monitor\s+tools\/call poll-system-stats allowed/,
    /vanilla\s+csp no domains: the app reaches nothing beyond its own document/,
    /react\s+ui\/initialize/,
  ]) {
    await expect.poll(async () => (await appActivity(page)).some((line) => expected.test(line)), { message: `App activity has ${expected}` }).toBe(true);
  }
  const activity = await appActivity(page);
  // Every app shown was taken down again: off screen, or when the chat was left.
  const opened = activity.filter((line) => /\sopen for /.test(line)).length;
  expect(opened).toBeGreaterThanOrEqual(4);
  await expect.poll(async () => (await appActivity(page)).filter((line) => /\sclose the frame was removed/.test(line)).length).toBe(opened);
  expect(errors).toEqual([]);
});

test('isolation, checked from inside a real app’s frame: no way to the page, its storage, other apps, the network or the top window', async ({ page, startApps }) => {
  const harbor = await startApps({ servers: ['vanilla', 'react'], script: [{ toolCalls: [{ name: 'vanilla__get-time' }, { name: 'react__get-time' }] }, { text: 'ok' }] });
  await openChatPage(page, harbor.url);
  await send(page, 'two apps');
  await allowWhile(page, async () => (await page.getByText('ok', { exact: true }).count()) > 0);
  const pageOrigin = new URL(page.url()).origin;
  const { app } = await readyApp(page, 'vanilla', 'get-time');
  await expect(app.locator('code').first()).toHaveText(ISO);
  const proxy = app.parentFrame()!;

  // Three origins: the page, the sandbox proxy (browser mode's second loopback port, named localhost:
  // another site than the page's 127.0.0.1, so a process of its own), the app (opaque).
  const proxyOrigin = new URL(proxy.url()).origin;
  expect(proxyOrigin).toMatch(/^http:\/\/localhost:\d+$/);
  expect(proxyOrigin).not.toBe(pageOrigin);
  // The app's document has its own single-use address on the sandbox origin (no token, no instance id).
  const [appOrigin, appHref] = await app.evaluate(() => [window.origin, location.href]);
  expect(appOrigin).toBe('null');
  expect(appHref).toMatch(new RegExp(`^${proxyOrigin}/doc/[A-Za-z0-9_-]{24}$`));

  const tried = await app.evaluate(async ({ listener, page: pageUrl }) => {
    const attempt = async (what: () => unknown): Promise<string> => {
      try {
        const value = await what();
        return `reached: ${String(value).slice(0, 60)}`;
      } catch (error) {
        return (error as Error).name;
      }
    };
    const loads = (tag: 'img' | 'script', src: string) =>
      new Promise<string>((resolve) => {
        const element = document.createElement(tag);
        element.onload = () => resolve('loaded');
        element.onerror = () => resolve('blocked');
        element.setAttribute('src', src);
        document.body.append(element);
        setTimeout(() => resolve('blocked (timeout)'), 3000);
      });
    const socket = () =>
      new Promise<string>((resolve) => {
        try {
          const ws = new WebSocket(listener.replace('http', 'ws') + '/ws');
          ws.onopen = () => resolve('opened');
          ws.onerror = () => resolve('blocked');
        } catch (error) {
          resolve((error as Error).name);
        }
      });
    return {
      topDocument: await attempt(() => window.top!.document.title),
      topLocation: await attempt(() => window.top!.location.href),
      parentDocument: await attempt(() => window.parent.document.body.innerHTML),
      otherApp: await attempt(() => (window.top!.frames[1] as Window).document.body.innerHTML),
      storage: await attempt(() => window.localStorage.getItem('harbor.theme')),
      cookies: await attempt(() => document.cookie),
      indexedDb: await attempt(() => indexedDB.open('x')),
      referrer: document.referrer,
      popup: String(window.open('https://example.com/') === null),
      fetchPage: await attempt(() => fetch(pageUrl).then((r) => r.status)),
      fetchListener: await attempt(() => fetch(`${listener}/fetch`).then((r) => r.status)),
      beacon: await attempt(() => navigator.sendBeacon(`${listener}/beacon`, 'x')),
      image: await loads('img', `${listener}/image.png`),
      script: await loads('script', `${listener}/script.js`),
      socket: await socket(),
      topNavigation: await attempt(() => {
        window.top!.location.href = 'https://evil.example/';
        return 'assigned';
      }),
    };
  }, { listener: harbor.listener.origin, page: pageOrigin });

  expect(tried).toEqual({
    topDocument: 'SecurityError',
    topLocation: 'SecurityError',
    parentDocument: 'SecurityError',
    otherApp: 'SecurityError',
    storage: 'SecurityError',
    cookies: 'SecurityError',
    indexedDb: 'SecurityError',
    referrer: '',
    popup: 'true',
    fetchPage: 'TypeError',
    fetchListener: 'TypeError',
    // sendBeacon only queues (its answer says nothing); the listener's log below says it never arrived.
    beacon: expect.stringMatching(/^(reached: (true|false)|TypeError|SecurityError)$/),
    image: 'blocked',
    script: 'blocked',
    socket: expect.stringMatching(/^(blocked|SecurityError|SyntaxError)$/),
    topNavigation: expect.stringMatching(/^(SecurityError|reached: assigned)$/),
  });
  // Nothing the app tried reached the network, and the page did not move.
  await page.waitForTimeout(500);
  expect(harbor.listener.hits).toEqual([]);
  expect(new URL(page.url()).origin).toBe(pageOrigin);
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();

  // A message the app posts straight to the page (not through its proxy) is ignored: no call runs.
  const before = harbor.model.requests.length;
  await app.evaluate(() => {
    window.top!.postMessage({ jsonrpc: '2.0', id: 77, method: 'tools/call', params: { name: 'get-time', arguments: {} } }, '*');
    window.top!.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: '<p>spoof</p>' } }, '*');
  });
  await page.waitForTimeout(500);
  expect(harbor.model.requests.length).toBe(before);

  // The sandbox page itself is not a page anyone can open: not top-level, not without its token.
  // (Its address as the page set it: the proxy takes the token out of its own once loaded.)
  const sandboxUrl = (await (await proxy.frameElement()).getAttribute('src'))!;
  const direct = await page.context().request.get(sandboxUrl, { headers: { 'sec-fetch-dest': 'document' } });
  expect(direct.status()).toBe(403);
  const guessed = await page.context().request.get(sandboxUrl.replace(/\/[^/]+\/app\//, '/not-the-token/app/'), { headers: { 'sec-fetch-dest': 'iframe' } });
  expect(guessed.status()).toBe(404);

  await goTo(page, 'Activity');
  // Read the trail once it has loaded (the apps' opening is in it), or its absence proves nothing.
  await expect.poll(async () => (await appActivity(page)).some((line) => /\sopen for /.test(line))).toBe(true);
  const activity = await appActivity(page);
  expect(activity.filter((line) => /tools\/call/.test(line))).toEqual([]);
});

test('the probe app drives every bridge request: context, display modes, links, messages, downloads, model context, logging, own-server calls, teardown and reload', async ({ page, startApps }, testInfo) => {
  let appUp!: () => void;
  const up = new Promise<void>((resolve) => (appUp = resolve));
  const harbor = await startApps({
    servers: ['vanilla'],
    probe: true,
    script: [
      // The model writes the call slowly, and goes on only once its app is up: the app is shown the
      // arguments as they come, before the call is made (on a slow machine too).
      { toolCalls: [{ name: 'probe__show_probe', arguments: { note: 'streamed to the app' }, argumentChunks: 8, holdAfterFirstChunk: up }], delayMs: 250 },
      { text: 'The probe is up.' },
      // The app's message, sent by the person: the model answers it, with the app's context beside.
      (request) => ({ text: JSON.stringify(request.messages.at(-1)).includes('[The probe app] The probe app shows token') ? 'I see the token.' : 'No context.' }),
    ],
  });
  const errors = collectErrors(page);
  // The OS save dialog cannot be driven here: the page's file picker is replaced by one that records what it was given.
  await page.addInitScript(() => {
    const saved: { name: string; text: Promise<string> }[] = [];
    (window as unknown as { __saved: typeof saved }).__saved = saved;
    (window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = async ({ suggestedName }: { suggestedName: string }) => ({
      createWritable: async () => ({ write: async (blob: Blob) => void saved.push({ name: suggestedName, text: blob.text() }), close: async () => undefined }),
    });
  });
  await page.emulateMedia({ colorScheme: 'light' });
  await openChatPage(page, harbor.url);
  await send(page, 'show the probe');
  await expect(toolCard(page, 'probe', 'show_probe').locator('[data-app-state]')).toHaveAttribute('data-app-state', 'ready', { timeout: 60_000 });
  appUp();
  await allowWhile(page, async () => (await page.getByText('The probe is up.').count()) > 0);
  const token = /\((token-[^)]+)\)/.exec(harbor.model.requests[1]!.toolResults[0]!.content)![1]!;

  const card = toolCard(page, 'probe', 'show_probe');
  const ready = await readyApp(page, 'probe', 'show_probe');
  const region = ready.region;
  let app = ready.app;
  const out = app.locator('#out');
  await expect(app.locator('#result')).toHaveText(JSON.stringify({ token }));
  await expect(app.locator('#input')).toHaveText('{"note":"streamed to the app"}');
  await expect(app.locator('#partial')).toContainText('{"note":"');
  await expect(app.locator('#tool')).toHaveText('show_probe');
  await expect(app.locator('#mode')).toHaveText('inline');
  await expect(app.locator('#locale')).not.toHaveText('?');

  // The theme follows the page, live.
  await expect(app.locator('#theme')).toHaveText('light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(app.locator('#theme')).toHaveText('dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(app.locator('#theme')).toHaveText('light');

  // The app may reach what its server declared (the listener), and only that.
  await press(app, '#connect');
  await expect(out).toContainText('fetch ok "listener says hi"');
  expect(harbor.listener.hits).toEqual(['/probe']);

  // Its own server's tools, under consent; not a model-only tool, not another server's.
  await press(app, '#call-app-only');
  await allowWhile(page, async () => (await out.textContent())!.includes('app_only ok'));
  await press(app, '#call-other');
  await expect(out).toContainText('other error "probe" offers its tool "model_only" to the model only, not to its app.');
  await app.locator('#other-name').fill('get-time');
  await press(app, '#call-other');
  await expect(out).toContainText('An app may call only its own server\'s tools.');
  await press(app, '#list-tools');
  await expect(out).toContainText('list ok ["show_probe","show_listed","app_only","client_capabilities","bad_mime","missing_resource"]');

  // Display modes: full screen fills the window and comes back; a mode the app did not declare is refused.
  await press(app, '#fullscreen');
  await expect(app.locator('#mode')).toHaveText('fullscreen');
  const box = (await region.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect([box.x, box.y, box.width, box.height]).toEqual([0, 0, viewport.width, viewport.height]);
  await screenshot(page, 'apps-fullscreen', testInfo);
  await page.getByRole('button', { name: 'Exit full screen' }).click();
  await expect(app.locator('#mode')).toHaveText('inline');
  await press(app, '#pip');
  await expect(out).toContainText('mode ok {"mode":"inline"}');

  // Links: https only, and only when the person says so.
  await press(app, '#link-https');
  const linkDialog = page.getByRole('dialog', { name: 'Open a link from the probe app?' });
  await expect(linkDialog.locator('mark')).toHaveText('example.com');
  await expectNoAxeViolations(page, 'dialog[open]');
  await linkDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(out).toContainText('link ok {"isError":true}');
  await press(app, '#link-http');
  await expect(page.getByRole('dialog', { name: 'Open a link from the probe app?' }).getByRole('button', { name: 'Open in browser' })).toBeDisabled();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  // A download goes where the person picks.
  await press(app, '#download');
  const saveDialog = page.getByRole('dialog', { name: 'Save a file from the probe app?' });
  await expect(saveDialog.getByText('probe-report.txt')).toBeVisible();
  await expectNoAxeViolations(page, 'dialog[open]');
  await saveDialog.getByRole('button', { name: 'Save…' }).click();
  await saveDialog.getByRole('button', { name: 'Done' }).click();
  await expect(out).toContainText('download ok {}');
  expect(await page.evaluate(async () => Promise.all((window as unknown as { __saved: { name: string; text: Promise<string> }[] }).__saved.map(async (s) => `${s.name}: ${await s.text}`)))).toEqual(['probe-report.txt: probe report']);

  // Logging, and what the app tells the model.
  await press(app, '#log');
  await press(app, '#context');
  await expect(out).toContainText('context ok {}');

  // A message from the app reaches the conversation only after the person approved its exact text.
  await press(app, '#message');
  const messageDialog = page.getByRole('dialog', { name: 'Add the probe app’s message to the conversation?' });
  await expect(messageDialog.getByText('Hello from the probe app')).toBeVisible();
  await expectNoAxeViolations(page, 'dialog[open]');
  await messageDialog.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Hello from the probe app')).toBeVisible();
  await expect(page.getByText('I see the token.')).toBeVisible();

  // The app asks to be closed: it is, and can be shown again — from the stored result.
  ({ app } = await readyApp(page, 'probe', 'show_probe'));
  await press(app, '#close-me');
  await expect(card.getByText('The probe app closed itself.')).toBeVisible();
  await card.getByRole('button', { name: 'Show it again' }).click();
  ({ app } = await readyApp(page, 'probe', 'show_probe'));
  await expect(app.locator('#result')).toHaveText(JSON.stringify({ token }));

  // A reload of the page shows the conversation again, and the app re-renders from the stored result.
  const calls = harbor.model.requests.length;
  await page.reload();
  await page.getByRole('list', { name: 'Conversation history' }).getByRole('button', { name: /show the probe/ }).click();
  ({ app } = await readyApp(page, 'probe', 'show_probe'));
  await expect(app.locator('#result')).toHaveText(JSON.stringify({ token }));
  expect(harbor.model.requests.length).toBe(calls);

  await goTo(page, 'Activity');
  for (const expected of [
    /probe\s+connect-src allowed http:\/\/127\.0\.0\.1:\d+/,
    /probe\s+script\/style\/img\/font\/media-src refused "\*"/,
    /probe\s+camera refused/,
    /probe\s+tools\/call app_only allowed/,
    /probe\s+tools\/call model_only refused/,
    /probe\s+tools\/call get-time refused/,
    /probe\s+ui\/request-display-mode fullscreen allowed/,
    /probe\s+ui\/request-display-mode pip \(stays inline\) refused/,
    /probe\s+ui\/open-link https:\/\/example\.com\/probe refused/,
    /probe\s+ui\/download-file probe-report\.txt \(1 saved\) allowed/,
    /probe\s+notifications\/message info: probe log line/,
    /probe\s+ui\/update-model-context \d+ characters for the next turns allowed/,
    /probe\s+ui\/message Hello from the probe app allowed/,
    /probe\s+ui\/notifications\/request-teardown the app asked to be closed/,
  ]) {
    // The list fills from the Host after the page opens: wait for each line, do not read it once.
    await expect.poll(async () => (await appActivity(page)).join('\n'), { message: `App activity has ${expected}` }).toMatch(expected);
  }
  expect(errors).toEqual([]);
});

test('a missing or invalid app resource shows a clear error in the card, which still shows the result', async ({ page, startApps }) => {
  const harbor = await startApps({ servers: [], probe: true, script: [{ toolCalls: [{ name: 'probe__bad_mime' }] }, { text: 'done' }] });
  await openChatPage(page, harbor.url);
  await send(page, 'bad app');
  await allowWhile(page, async () => (await page.getByText('done', { exact: true }).count()) > 0);
  const card = toolCard(page, 'probe', 'bad_mime');
  await expect(card.getByText('The probe app could not be shown.')).toBeVisible();
  await expect(card.getByRole('alert')).toContainText('not "text/html;profile=mcp-app"');
  await expect(card.getByText('bad_mime ran')).toBeVisible();
});
