import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { EVERYTHING_SERVER, NODE } from './host';
import { runningServer, type RunningHttpServer } from './http-server';

/** A port free on 127.0.0.1 right now (server-everything takes its port from PORT, not 0). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** server-everything 2026.8.31 over Streamable HTTP (2025 sessions), as `npx … streamableHttp` runs it. */
export async function startEverythingHttp(): Promise<RunningHttpServer> {
  const port = await freePort();
  const child = spawn(NODE, [EVERYTHING_SERVER, 'streamableHttp'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PORT: String(port) } });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${stderr}`)), 15_000);
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}: ${stderr}`)));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes(`listening on port ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  child.stdout.resume();
  return runningServer(`http://127.0.0.1:${port}/mcp`, child);
}
