/**
 * What the MCP Apps benchmarks run on: the built `harbor web` over a temp registry (the published
 * vanilla JS App server and the probe App fixture, both trusted), the scripted model, and Debian's
 * Chromium driven by Playwright. The page is watched from inside: when each tool result reaches it
 * over the socket, and when a plain result card was painted (both on the epoch clock, as the probe
 * app's own paint mark is). Memory is read from /proc: the proportional set size of every process
 * of the browser.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { startScriptedModel, type ScriptEntry, type ScriptedModel } from '../test/fixtures/model/scripted-model';
import { readUrlLine, stopProcess } from '../test/e2e/harbor-process';
import { MARKER_ENV, NODE, REPO, findMarkedProcesses, freshDir, marker, sleep } from './support';

const VANILLA = join(REPO, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js');
const PROBE = join(REPO, 'test/fixtures/servers/apps/probe-app-server.mjs');
/** The same flags as the e2e project (playwright.config.ts): Debian's Chromium, headless. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Runs in the Harbor page before its own code: timestamps each tool call's result as its socket
 * message arrives, and each plain result card (the probe's model_only, which has no app) once painted. The page's only socket is
 * Harbor's, so wrapping WebSocket sees exactly the events the page gets.
 */
function watchPage(): void {
  const marks = { resultAt: [] as number[], plainPaintedAt: [] as number[] };
  (window as unknown as { harborBench: typeof marks }).harborBench = marks;
  const stamp = () => performance.timeOrigin + performance.now();
  const seen = new Set<string>();
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (event: MessageEvent) => {
        if (typeof event.data !== 'string' || !event.data.includes('"chat.toolCall"')) return;
        const { payload } = JSON.parse(event.data) as { payload: { call: { id: string; status: string } } };
        if (payload.call.status !== 'done' || seen.has(payload.call.id)) return;
        seen.add(payload.call.id);
        marks.resultAt.push(stamp());
      });
    }
  };
  // The message list is virtualised (cards off screen leave the DOM) and re-rendered when a turn
  // ends, so each card element that shows a plain result is marked once; the bench takes the first
  // mark after the result.
  const marked = new WeakSet<Element>();
  new MutationObserver(() => {
    // The probe's model_only has no app: its card shows the result itself.
    for (const card of document.querySelectorAll('article.tool-card--done[aria-label$="› model_only"]')) {
      if (marked.has(card)) continue;
      marked.add(card);
      requestAnimationFrame(() => setTimeout(() => marks.plainPaintedAt.push(stamp()), 0));
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
}

export interface AppsBench {
  readonly page: Page;
  readonly model: ScriptedModel;
  /** Sends a chat message and waits for `reply`, allowing every tool the turn asks for ("Always allow"). */
  turn(text: string, reply: string): Promise<void>;
  /** The page's marks so far (see watchPage). */
  marks(): Promise<{ resultAt: number[]; plainPaintedAt: number[] }>;
  /** Proportional set size of all the browser's processes, in MiB, and how many there are. */
  browserMemory(): { pssMiB: number; processes: number };
  close(): Promise<void>;
}

/**
 * The marked processes and all their descendants (Linux /proc): Chromium starts some helpers (its
 * zygote's children) with an environment of their own, so the marker alone misses them.
 */
function withDescendants(roots: readonly number[]): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone
    }
  }
  const inTree = new Set(roots);
  for (const pid of parent.keys()) {
    const chain: number[] = [];
    for (let at: number | undefined = pid; at !== undefined && at > 1 && !inTree.has(at); at = parent.get(at)) chain.push(at);
    const top = chain.length > 0 ? parent.get(chain.at(-1)!) : pid;
    if (top !== undefined && inTree.has(top)) for (const member of chain) inTree.add(member);
  }
  return [...inTree];
}

function pssKiB(pid: number): number {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

export async function startAppsBench(label: string, script: readonly ScriptEntry[]): Promise<AppsBench> {
  for (const built of ['out/main/cli.js', 'out/renderer/index.html']) {
    if (!existsSync(join(REPO, built))) throw new Error(`${built} is missing: run "npm run build" before the apps benchmarks`);
  }
  const { chromium } = await import('@playwright/test');
  const dir = freshDir(label);
  const model = await startScriptedModel({ script });
  const configPath = join(dir, 'harbor.json');
  const mcpServers = {
    vanilla: { command: NODE, args: [VANILLA, '--stdio'], trusted: true },
    probe: { command: NODE, args: [PROBE], trusted: true },
  };
  writeFileSync(configPath, JSON.stringify({ mcpServers, model: model.modelConfig() }, null, 2));
  let child: ChildProcessWithoutNullStreams | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    if (child) await stopProcess(child);
    await model.close();
  };
  try {
    child = spawn(NODE, [join(REPO, 'bin/harbor.js'), 'web', '--port', '0', '--config', configPath, '--data-dir', dir], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    const url = await readUrlLine(child);
    // Every process of the browser carries this marker, so its memory can be summed (and swept).
    const browserMark = marker(`${label}-browser`);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
      headless: true,
      env: { ...process.env, [MARKER_ENV]: browserMark },
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(watchPage);
    await page.goto(url);
    await page.getByRole('combobox', { name: 'Model' }).filter({ hasText: 'scripted' }).waitFor({ timeout: 20_000 });
    return {
      page,
      model,
      async turn(text, reply) {
        const box = page.getByRole('textbox', { name: 'Message' });
        await box.fill(text);
        await box.press('Enter');
        const deadline = Date.now() + 60_000;
        while ((await page.getByText(reply, { exact: true }).count()) === 0) {
          if (Date.now() > deadline) throw new Error(`no "${reply}" within 60 s`);
          // A chat's own call is asked by a card in its transcript (#31); a question from elsewhere is a dialog.
          const allow = page.getByRole('dialog').or(page.locator('.consent-card')).getByRole('button', { name: 'Always allow' });
          if ((await allow.count()) > 0) await allow.first().click();
          else await sleep(20);
        }
      },
      marks: () => page.evaluate(() => (window as unknown as { harborBench: { resultAt: number[]; plainPaintedAt: number[] } }).harborBench),
      browserMemory() {
        const processes = withDescendants(findMarkedProcesses(browserMark).map((p) => p.pid));
        return { pssMiB: processes.reduce((sum, pid) => sum + pssKiB(pid), 0) / 1024, processes: processes.length };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
