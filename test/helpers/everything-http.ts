import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { EVERYTHING_SERVER, NODE } from './host';
import { runningServer, type RunningHttpServer } from './http-server';

export interface RunningEverything {
  readonly port: number;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * server-everything (the npm devDependency) in its Streamable HTTP or HTTP+SSE mode. It takes its
 * port from PORT and binds every interface; a free port is picked first.
 */
export async function startEverything(mode: 'streamableHttp' | 'sse'): Promise<RunningEverything> {
  const port = await freePort();
  const child = spawn(NODE, [EVERYTHING_SERVER, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start: ${stderr}`)), 15_000);
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited with ${code}: ${stderr}`)));
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (/listening on port|running on port/.test(stderr)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  child.stderr!.resume();
  return {
    port,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** server-everything over Streamable HTTP (2025 sessions), as `npx … streamableHttp` runs it, at its /mcp URL. */
export async function startEverythingHttp(): Promise<RunningHttpServer> {
  const { port, child } = await startEverything('streamableHttp');
  return runningServer(`http://127.0.0.1:${port}/mcp`, child);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
