import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE, REPO } from './host';

export const CLI = join(REPO, 'out/main/cli.js');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed as JSON lines. */
  json<T = Record<string, unknown>>(): T[];
}

/** Runs the built CLI (`npm run build` writes it) as a user would, and collects its output. */
export function runCli(
  args: string[],
  options: {
    timeoutMs?: number;
    input?: string;
    env?: NodeJS.ProcessEnv;
    onStdoutLine?: (line: string) => void;
    onStderrLine?: (line: string) => void;
    /** Sends SIGINT (Ctrl-C) once a stdout line passes: a long-running command ends on the event awaited, not on a clock. */
    interruptWhen?: (line: string) => boolean;
  } = {},
): Promise<CliRun> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first (npm test does).`);
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'], ...(options.env ? { env: { ...process.env, ...options.env } } : {}) });
    let stdout = '';
    let stderr = '';
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (options.onStdoutLine || options.interruptWhen) {
        pending += chunk.toString();
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          options.onStdoutLine?.(line);
          if (options.interruptWhen?.(line)) child.kill('SIGINT');
        }
      }
    });
    let pendingErr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (options.onStderrLine) {
        pendingErr += chunk.toString();
        const lines = pendingErr.split('\n');
        pendingErr = lines.pop() ?? '';
        for (const line of lines) options.onStderrLine(line);
      }
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`harbor ${args.join(' ')} did not finish in ${options.timeoutMs ?? 60_000} ms.\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout,
        stderr,
        json: <T>() => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as T),
      });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** A temp dir with a registry file; remove() deletes it. */
export function tempRegistry(servers: Record<string, unknown>): { dir: string; config: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-cli-'));
  const config = join(dir, 'harbor.json');
  writeFileSync(config, JSON.stringify({ mcpServers: servers }, null, 2));
  return { dir, config, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
