import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { FEATURE_SERVER, FIXTURES, NODE } from './host';

export interface RunningHttpServer {
  readonly url: string;
  readonly child: ChildProcess;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the feature fixture in Streamable HTTP mode on 127.0.0.1 and waits for its URL line. */
export function startHttpFeatureServer(extraArgs: string[] = []): Promise<RunningHttpServer> {
  return startListeningServer([FEATURE_SERVER, '--http', '0', ...extraArgs]);
}

/** Starts the v1-SDK legacy remote fixture: the old HTTP+SSE transport, or 2025 Streamable HTTP. */
export function startLegacyHttpServer(mode: 'sse' | 'streamable'): Promise<RunningHttpServer> {
  return startListeningServer([LEGACY_HTTP_SERVER, '--mode', mode]);
}

const LEGACY_HTTP_SERVER = join(FIXTURES, 'legacy/legacy-http.mjs');

/** @modelcontextprotocol/server-everything (legacy, 2025-11-25) over Streamable HTTP on 127.0.0.1. */
export function startHttpEverythingServer(): Promise<RunningHttpServer> {
  return startListeningServer([join(FIXTURES, 'legacy/everything-http.mjs')]);
}

/** The Tasks-extension fixture (test/fixtures/servers/modern/tasks-server.mjs) over Streamable HTTP. */
export const TASKS_SERVER = join(FIXTURES, 'modern/tasks-server.mjs');

export function startHttpTasksServer(extraArgs: string[] = []): Promise<RunningHttpServer> {
  return startListeningServer([TASKS_SERVER, '--http', '0', ...extraArgs]);
}

/** Runs a fixture that prints {"listening": URL} on stdout once bound to 127.0.0.1. */
export async function startListeningServer(args: string[]): Promise<RunningHttpServer> {
  const child = spawn(NODE, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`HTTP fixture did not start: ${stderr}`)), 15_000);
    child.once('exit', (code) => reject(new Error(`HTTP fixture exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const parsed = JSON.parse(line) as { listening?: string };
        if (parsed.listening) {
          clearTimeout(timer);
          resolve(parsed.listening);
        }
      } catch {
        // not our line
      }
    });
  });
  return runningServer(url, child);
}

/** A started server process at `url`; kill() resolves once it has exited. */
export function runningServer(url: string, child: ChildProcess): RunningHttpServer {
  return {
    url,
    child,
    kill: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}
