import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { NODE, REPO } from './host';

export const REGISTRY_SERVER = join(REPO, 'test/fixtures/registry/registry-server.mjs');

export interface LocalRegistry {
  readonly url: string;
  /** The request paths it received, in order. */
  requests(): Promise<string[]>;
  stop(): Promise<void>;
}

/** Starts the local MCP Registry (test/fixtures/registry) on 127.0.0.1 and waits for its URL (`servers`: another folder of documents; `endless`: every answer, or every download, a body that never ends). */
export async function startRegistry(options: { bundles?: string[]; remote?: string; stall?: boolean; servers?: string; endless?: 'all' | 'files' } = {}): Promise<LocalRegistry> {
  const args = [REGISTRY_SERVER, ...(options.bundles ?? []).flatMap((b) => ['--bundle', b]), ...(options.remote ? ['--remote', options.remote] : []), ...(options.stall ? ['--stall'] : []), ...(options.servers ? ['--servers', options.servers] : []), ...(options.endless ? ['--endless', options.endless] : [])];
  const child = spawn(NODE, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the local registry did not start: ${stderr}`)), 15_000);
    child.once('exit', (code) => reject(new Error(`the local registry exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { listening: string }).listening);
    });
  });
  return {
    url,
    requests: async () => (await (await fetch(`${url}/requests`)).json()) as string[],
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
