/**
 * The connection doctor's looks at the machine and the network, each read-only: where a stdio
 * server's command resolves, its runtime's version, its working folder; a remote server's address,
 * TLS and its answer to a first request. Each returns one check; none throws.
 */
import { execFile } from 'node:child_process';
import { constants, accessSync, statSync } from 'node:fs';
import type { Socket } from 'node:net';
import { basename, delimiter, isAbsolute } from 'node:path';
import type { DoctorCheckData } from '../../../preload/contract';
import { findExecutable } from '../installs/find-executable';
import { describeWholeCommandLine, splitFix, wholeCommandLine } from '../servers/stdio/whole-command-line';

/** How long one network look or one `--version` may take. */
export const PROBE_TIMEOUT_MS = 5_000;

/** Where the command resolves on `path` (the PATH Harbor gives the server), naming the folders searched when it does not. */
export function commandCheck(command: string, path: string | undefined): { check: DoctorCheckData; resolved?: string } {
  // Never blame a program that exists: "node /srv/x.mjs" is not found, "node" is.
  const whole = wholeCommandLine(command, path);
  if (whole) return { check: { id: 'command', status: 'fail', code: 'SPAWN_FAILED', message: `"${command}" is not one program: ${describeWholeCommandLine(whole)}`, fix: splitFix(whole) } };
  if (isAbsolute(command) || command.includes('/')) {
    try {
      accessSync(command, constants.X_OK);
      if (!statSync(command).isFile()) throw new Error('not a file');
      return { check: { id: 'command', status: 'ok', message: `${command} exists and can be run` }, resolved: command };
    } catch {
      // Told as the check's failure: the path is named, and so is the fix.
      return { check: { id: 'command', status: 'fail', code: 'SPAWN_FAILED', message: `${command} does not exist or cannot be run`, fix: 'Correct "command" in the server\'s entry (an absolute path to a program you can run).' } };
    }
  }
  const resolved = findExecutable(command, [path]);
  if (resolved) return { check: { id: 'command', status: 'ok', message: `"${command}" resolves to ${resolved}` }, resolved };
  const folders = (path ?? '').split(delimiter).filter(Boolean);
  return {
    check: {
      id: 'command',
      status: 'fail',
      code: 'SPAWN_FAILED',
      message: `"${command}" was not found on the PATH Harbor gives servers (searched: ${folders.join(', ') || 'no folders'})`,
      fix: `Install "${command}", or put its full path in "command".`,
    },
  };
}

/** The runtime a launcher uses, and how to ask its version. */
const RUNTIMES: Readonly<Record<string, { runtime: string; args: string[] }>> = {
  node: { runtime: 'node', args: ['--version'] },
  npx: { runtime: 'node', args: ['--version'] },
  npm: { runtime: 'node', args: ['--version'] },
  uvx: { runtime: 'uv', args: ['--version'] },
  uv: { runtime: 'uv', args: ['--version'] },
  python: { runtime: 'python', args: ['--version'] },
  python3: { runtime: 'python3', args: ['--version'] },
  docker: { runtime: 'docker', args: ['--version'] },
};

/** The runtime's version for npx/node, uvx/python, docker; undefined for another command. */
export async function runtimeCheck(command: string, resolved: string, path: string | undefined): Promise<DoctorCheckData | undefined> {
  const known = RUNTIMES[basename(command).replace(/\.(exe|cmd)$/i, '')];
  if (!known) return undefined;
  const program = known.runtime === basename(resolved) ? resolved : findExecutable(known.runtime, [path]);
  if (!program) {
    return { id: 'runtime', status: 'fail', code: 'SPAWN_FAILED', message: `"${command}" needs ${known.runtime}, which was not found on the PATH Harbor gives servers`, fix: `Install ${known.runtime}.` };
  }
  return new Promise((resolve) => {
    execFile(program, known.args, { timeout: PROBE_TIMEOUT_MS, env: { ...process.env, ...(path ? { PATH: path } : {}) } }, (error, stdout, stderr) => {
      const text = `${stdout}${stderr}`.trim().split('\n')[0] ?? '';
      if (error) resolve({ id: 'runtime', status: 'warn', message: `${program} ${known.args.join(' ')} failed: ${error.message.split('\n')[0]}` });
      else resolve({ id: 'runtime', status: 'ok', message: `${known.runtime} ${text}` });
    });
  });
}

export function cwdCheck(cwd: string | undefined): DoctorCheckData {
  if (cwd === undefined) return { id: 'cwd', status: 'skip', message: 'no working folder set: the server starts in Harbor\'s own' };
  try {
    if (statSync(cwd).isDirectory()) return { id: 'cwd', status: 'ok', message: `${cwd} exists` };
  } catch {
    // Told as the failure below.
  }
  return { id: 'cwd', status: 'fail', code: 'SPAWN_FAILED', message: `the working folder ${cwd} does not exist`, fix: 'Create the folder, or correct "cwd" in the server\'s entry.' };
}

/** `host:port` of a URL, the default port filled in. */
export function hostPort(url: URL): { host: string; port: number; label: string } {
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return { host, port, label: `${url.hostname}:${port}` };
}

/** The address resolves and accepts a TCP connection. */
export async function addressCheck(url: URL): Promise<DoctorCheckData> {
  const { host, port, label } = hostPort(url);
  let address: string;
  try {
    address = (await process.getBuiltinModule('node:dns/promises').lookup(host)).address;
  } catch (error) {
    return { id: 'address', status: 'fail', code: 'CONNECT_FAILED', message: `${host} does not resolve: ${errorText(error)}`, fix: 'Check the address in "url", and your network.' };
  }
  try {
    await open(() => process.getBuiltinModule('node:net').connect({ host: address, port }), 'connect');
    return { id: 'address', status: 'ok', message: `${label} (${address}) accepts connections` };
  } catch (error) {
    return { id: 'address', status: 'fail', code: 'CONNECT_FAILED', message: `${label} does not accept connections: ${errorText(error)}`, fix: 'Start the server, or correct the address and port in "url".' };
  }
}

/** For https: the certificate is valid for the host. */
export async function tlsCheck(url: URL): Promise<DoctorCheckData> {
  if (url.protocol !== 'https:') return { id: 'tls', status: url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]' ? 'skip' : 'warn', message: 'plain http: the connection is not encrypted' };
  const { host, port, label } = hostPort(url);
  try {
    // node:tls, node:net and node:dns through getBuiltinModule when the doctor probes: an ES import
    // would load TLS at every start of every command (#32).
    const socket = await open(() => process.getBuiltinModule('node:tls').connect({ host, port, servername: host }), 'secureConnect');
    void socket;
    return { id: 'tls', status: 'ok', message: `TLS to ${label}: the certificate is valid` };
  } catch (error) {
    return { id: 'tls', status: 'fail', code: 'CONNECT_FAILED', message: `TLS to ${label} failed: ${errorText(error)}`, fix: 'The server\'s certificate is not trusted here: fix it on the server, or use the address it was issued for.' };
  }
}

/** What a remote server answers to an MCP initialize sent without credentials. */
export interface FirstAnswer {
  readonly status?: number;
  readonly needsSignIn: boolean;
  readonly check: DoctorCheckData;
}

export async function firstRequest(url: URL, protocolVersion: string): Promise<FirstAnswer> {
  const body = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'harbor-doctor', version: '1' } } };
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    // The body is not needed; the server's answer is its status (a body that cannot be cancelled is already closed).
    void response.body?.cancel().catch(() => undefined);
    const kind = response.headers.get('content-type') ?? 'no content type';
    if (response.status === 401 || response.status === 403) {
      return { status: response.status, needsSignIn: true, check: { id: 'first-request', status: 'ok', message: `answers ${response.status} without credentials: it needs sign-in or a key` } };
    }
    if (response.ok) return { status: response.status, needsSignIn: false, check: { id: 'first-request', status: 'ok', message: `answers ${response.status} (${kind})` } };
    return { status: response.status, needsSignIn: false, check: { id: 'first-request', status: 'warn', message: `answers ${response.status} ${response.statusText} (${kind}) to an MCP initialize` } };
  } catch (error) {
    return { needsSignIn: false, check: { id: 'first-request', status: 'fail', code: 'CONNECT_FAILED', message: `no answer to a first request: ${errorText(error)}` } };
  }
}

/** Opens a socket and ends it once `ready` fires; rejects on error or after the timeout. */
function open(create: () => Socket, ready: 'connect' | 'secureConnect'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = create();
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer in ${PROBE_TIMEOUT_MS / 1000} s`));
    }, PROBE_TIMEOUT_MS);
    socket.once(ready, () => {
      clearTimeout(timer);
      socket.end();
      socket.destroy();
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    });
  });
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const cause = (error as { cause?: unknown }).cause;
    const base = typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
    return cause instanceof Error ? `${base}: ${errorText(cause)}` : base;
  }
  return String(error);
}
