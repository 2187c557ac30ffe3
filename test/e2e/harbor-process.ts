import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Page } from '@playwright/test';

/** The one stdout line `harbor web` prints when ready: `{"url": "http://127.0.0.1:PORT/#token=…"}`. */
export function readUrlLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`harbor web printed no URL within 20 s:\n${stderr}`)), 20_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      resolvePromise((JSON.parse(stdout.slice(0, newline)) as { url: string }).url);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`harbor web exited (${code}) before printing its URL:\n${stderr}`));
    });
  });
}

/** SIGTERM (harbor web stops its servers and exits), SIGKILL if it has not after 10 s. */
export async function stopProcess(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Console errors (CSP violations and failed loads included) and uncaught page errors: a spec ends expecting none. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // Harbor's page only: an MCP App's own frame (its sandbox origin) may log what it likes, e.g. a
    // request Harbor refused it by design (one waiting request per tool).
    const source = message.location().url;
    if (source && /^https?:/.test(source) && /^https?:/.test(page.url()) && new URL(source).origin !== new URL(page.url()).origin) return;
    errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
