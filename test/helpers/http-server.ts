import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { FEATURE_SERVER, NODE } from './host';

export interface RunningHttpServer {
  readonly url: string;
  readonly child: ChildProcess;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the feature fixture in Streamable HTTP mode on 127.0.0.1 and waits for its URL line. */
export async function startHttpFeatureServer(extraArgs: string[] = []): Promise<RunningHttpServer> {
  const child = spawn(NODE, [FEATURE_SERVER, '--http', '0', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
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
