/**
 * The machine's own floor for a cold start, with no MCP client at all: spawn the server script,
 * write one `initialize` request, wait for the first line back, kill it. Starting a Node server
 * costs a few hundred ms of CPU (module loading), so on a machine with fewer cores than servers
 * the parallel start is bounded by CPU, whatever the host does; this shows by how much.
 */
import { spawn } from 'node:child_process';
import { MARKER_ENV, NODE, now } from './support';

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench-floor', version: '0.0.0' } },
})}\n`;

/** Milliseconds from spawn to the first stdout line of `node script ...args`. */
export async function rawFirstAnswer(script: string, args: readonly string[], mark: string): Promise<number> {
  const started = now();
  const child = spawn(NODE, [script, ...args], {
    stdio: ['pipe', 'pipe', 'ignore'],
    env: { PATH: process.env.PATH ?? '', [MARKER_ENV]: mark },
  });
  try {
    return await new Promise<number>((resolve, reject) => {
      let buffered = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        buffered += chunk;
        if (buffered.includes('\n')) resolve(now() - started);
      });
      child.once('error', reject);
      child.once('exit', (code, signal) => reject(new Error(`${script} exited (${signal ?? code}) before answering`)));
      // No EOF after it: a server may exit on EOF before it answers.
      child.stdin.write(INITIALIZE);
    });
  } finally {
    child.kill('SIGKILL');
  }
}
