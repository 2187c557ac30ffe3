/**
 * An MCP client transport over a supervised child process: what the SDK's StdioClientTransport
 * does, plus what a host needs and the SDK does not do —
 * - the process tree is Harbor's (StdioProcess: group signals, stop ladder, sweep after exit);
 * - stdout is parsed at the byte level, so multibyte characters split across reads arrive intact;
 * - a stdout line that is not JSON-RPC (a `console.log` in a server, a banner from a wrapper) is
 *   noise to report, not a reason to drop the connection — unless nothing but noise comes: a
 *   server that has written non-MCP output, with a request of Harbor's (the era probe included)
 *   waiting, and then stays silent for 2 s is no stdio MCP server (an HTTP server started by
 *   mistake, a CLI printing its usage); the transport closes, quoting the lines, instead of
 *   leaving the connect to the probe's and the connect's timeouts. (A legacy server that ignores
 *   the probe and printed a banner fails too: it broke the stdio rule first.)
 * - stderr goes to a ring buffer for error messages, never onto the host's own stdout.
 *
 * The SDK's Client sets onmessage/onclose/onerror, then calls start(). Because this is not the
 * SDK's own class, `versionNegotiation: auto` probes in place on this one process (no sibling).
 */
import {
  SdkError,
  SdkErrorCode,
  parseJSONRPCMessage,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import type { Writable } from 'node:stream';
import type { Disposable } from '../../lifecycle';
import type { LineRing } from '../ring-buffer';
import { noteWireText } from '../wire-text';
import { ByteLineSplitter } from './line-splitter';
import { StdioProcess, type ExitInfo, type StdioSpawnOptions, type StopGraces } from './process';

export type StdioLaunch = Pick<StdioSpawnOptions, 'command' | 'args' | 'env' | 'cwd' | 'marker'>;

/**
 * The command line actually spawned, when something stands between the configured one and the
 * OS (the sandbox): made just before the spawn, disposed once the process and its tree are gone.
 */
export interface PreparedLaunch {
  readonly command: string;
  readonly args: readonly string[];
  /** Replaces the launch's environment when given. */
  readonly env?: Readonly<Record<string, string>>;
  /** Sees every stderr line too. */
  readonly onStderrLine?: (line: string) => void;
  dispose(): Promise<void>;
}

/** Makes the PreparedLaunch; `note` adds a line of Harbor's own to the server's stderr log. */
export type PrepareLaunch = (launch: StdioLaunch, note: (line: string) => void) => Promise<PreparedLaunch>;

export interface SupervisedStdioOptions {
  /** The stop ladder's graces; a function is asked at each stop (a Host told to hurry shortens them). */
  stopGraces?: StopGraces | (() => StopGraces | undefined);
  /** Each complete stderr line, as it arrives (also kept in the ring). */
  onStderrLine?: (line: string) => void;
  /** Each stdout line that was not a JSON-RPC message (also noted in the stderr ring). */
  onStdoutNoise?: (line: string) => void;
  /** A single message larger than this is dropped (default 10 MiB, as in the SDK). */
  maxMessageBytes?: number;
  /** stderr lines kept (default 500). */
  stderrLines?: number;
  /** How long silence may follow non-MCP stdout output while a request waits, before any MCP message came (default 2 s). */
  strayOutputGraceMs?: number;
  /** Turns the launch into the command line to spawn (the sandbox); a rejection fails start(). */
  prepare?: PrepareLaunch;
  /** Kills the server's process group if Harbor dies without stopping it (reaper.ts). */
  reaper?: StdioSpawnOptions['reaper'];
}

const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const DEFAULT_STRAY_OUTPUT_GRACE_MS = 2_000;
/** How many non-MCP lines the failure quotes. */
const STRAY_LINES_QUOTED = 5;
/** How much of a noise line goes into the ring (the callback gets all of it). */
const NOISE_PREVIEW_CHARS = 500;

export class SupervisedStdioTransport implements Transport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];

  private proc: StdioProcess | undefined;
  private closing: Promise<void> | undefined;
  private closeFired = false;
  private drainWait: Promise<void> | undefined;
  private readonly splitter: ByteLineSplitter;
  private noise = 0;
  /** The process's exit and stderr listeners: they end with the transport. */
  private readonly listeners: Disposable[] = [];
  /** Id of the era probe (`server/discover`) sent and not yet answered, while it is the last request. */
  private pendingProbe: string | number | undefined;
  private probeCut = false;
  /** Whether any JSON-RPC message came from the server yet. */
  private heardMcp = false;
  /** A request (the era probe included) was sent before any JSON-RPC message came. */
  private awaitingAnswer = false;
  /** The first non-MCP lines, written before any MCP message. */
  private readonly strayLines: string[] = [];
  private strayTimer: NodeJS.Timeout | undefined;
  private closedForStray = false;
  private prepared: PreparedLaunch | undefined;
  /** Lines noted before the process (and its stderr ring) exists. */
  private readonly earlyNotes: string[] = [];

  constructor(
    private readonly launch: StdioLaunch,
    private readonly options: SupervisedStdioOptions = {},
  ) {
    const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.splitter = new ByteLineSplitter(maxBytes, {
      line: (line) => this.handleLine(line),
      oversize: (bytes) => {
        const note = `[stdout] dropped a ${bytes}-byte message: over the ${maxBytes}-byte limit`;
        this.proc?.stderr.pushLine(note);
        this.onerror?.(new Error(note));
      },
    });
  }

  /** Spawns the server. Rejects with a SPAWN_FAILED HarborError when the OS cannot start it. */
  async start(): Promise<void> {
    if (this.proc) throw new Error('SupervisedStdioTransport already started');
    if (this.closing) throw new SdkError(SdkErrorCode.NotConnected, 'Not connected: the transport was closed');
    const launch = await this.prepareLaunch();
    let proc: StdioProcess;
    try {
      proc = StdioProcess.spawn({ ...launch, stderrLines: this.options.stderrLines, reaper: this.options.reaper });
    } catch (error) {
      await this.releasePrepared();
      throw error;
    }
    this.proc = proc;
    for (const line of this.earlyNotes.splice(0)) proc.stderr.pushLine(line);
    const onStderrLine = this.options.onStderrLine;
    if (onStderrLine) this.listeners.push(proc.onStderrLine(onStderrLine));
    const preparedStderr = this.prepared?.onStderrLine;
    if (preparedStderr) this.listeners.push(proc.onStderrLine(preparedStderr));
    proc.stdout.on('data', (chunk: Buffer) => this.splitter.push(chunk));
    proc.stdout.on('end', () => this.splitter.end());
    proc.stdout.on('error', (error) => this.onerror?.(error));
    this.listeners.push(
      proc.onExit(() => {
        // A process that never started is reported by start() rejecting, not as a closed connection.
        if (!proc.spawnError) void this.shutDown();
      }),
    );
    await proc.spawned.catch(async (error: unknown) => {
      await this.releasePrepared();
      throw error;
    });
  }

  private async releasePrepared(): Promise<void> {
    const prepared = this.prepared;
    this.prepared = undefined;
    await prepared?.dispose().catch(() => undefined); // the sandbox lease's release reports its own failures; the transport is closing
  }

  /** The launch as configured, or as the prepare hook turned it (closed meanwhile: undone, and refused). */
  private async prepareLaunch(): Promise<StdioLaunch> {
    const prepare = this.options.prepare;
    if (!prepare) return this.launch;
    const prepared = await prepare(this.launch, (line) => this.note(line));
    if (this.closing) {
      await prepared.dispose();
      throw new SdkError(SdkErrorCode.NotConnected, 'Not connected: the transport was closed');
    }
    this.prepared = prepared;
    return { ...this.launch, command: prepared.command, args: [...prepared.args], ...(prepared.env ? { env: { ...prepared.env } } : {}) };
  }

  /** A line of Harbor's own in the server's stderr log. */
  private note(line: string): void {
    if (this.proc) this.proc.stderr.pushLine(line);
    else this.earlyNotes.push(line);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const proc = this.proc;
    const stdin = proc?.stdin;
    if (!proc || !stdin || this.closing || proc.exitInfo || !stdin.writable) {
      throw new SdkError(SdkErrorCode.NotConnected, 'Not connected');
    }
    if ('method' in message && 'id' in message) {
      // Any other request means the client stopped waiting for the probe (it fell back).
      this.pendingProbe = message.method === 'server/discover' ? message.id : undefined;
      if (!this.heardMcp && !this.awaitingAnswer) {
        this.awaitingAnswer = true;
        if (this.strayLines.length > 0) this.watchStrayOutput();
      }
    }
    const text = JSON.stringify(message);
    noteWireText(message, text);
    if (!stdin.write(`${text}\n`)) await this.waitForDrain(stdin);
  }

  /** Runs the stop ladder (tree included), then reports the close. */
  async close(): Promise<void> {
    await this.shutDown();
  }

  // The SDK tells a stdio transport from an HTTP one by `"stderr" in transport && "pid" in
  // transport` (SDK 2.4.0): on stdio an unanswered era probe means legacy, on HTTP an outage.
  // Both members must stay, whatever else reads them.

  /** The server's process id once started. */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** The stderr ring (also holds `[stdout noise]` notes). Undefined before start(). */
  get stderr(): LineRing | undefined {
    return this.proc?.stderr;
  }

  /** The last `n` lines of stderr, for error messages. */
  stderrTail(n = 40): string {
    return this.proc?.stderr.tail(n) ?? '';
  }

  /** How the process ended, once it has. */
  get exitInfo(): ExitInfo | undefined {
    return this.proc?.exitInfo;
  }

  /**
   * True when the process ended (or was closed) while the era probe was unanswered: servers on
   * older SDKs exit on any request before `initialize`. The SDK reports that only as text.
   */
  get probeInterrupted(): boolean {
    return this.probeCut;
  }

  /** How many stdout lines were not JSON-RPC messages. */
  get noiseLines(): number {
    return this.noise;
  }

  /** The first stdout lines that were not JSON-RPC messages (`"a", "b"` inside the quotes a message puts around it), if written before any MCP message. */
  get strayOutput(): string | undefined {
    return this.strayLines.length > 0 ? this.strayLines.join('", "') : undefined;
  }

  /** True when the transport closed because the server wrote non-MCP output and answered nothing. */
  get closedForStrayOutput(): boolean {
    return this.closedForStray;
  }

  private graces(): StopGraces | undefined {
    const graces = this.options.stopGraces;
    return typeof graces === 'function' ? graces() : graces;
  }

  private shutDown(graces: StopGraces | undefined = this.graces()): Promise<void> {
    if (!this.closing && this.pendingProbe !== undefined && !this.closedForStray) this.probeCut = true;
    clearTimeout(this.strayTimer);
    this.closing ??= (async () => {
      try {
        await this.proc?.stop(graces);
      } finally {
        // After the stop ladder: nothing of the process tree is left to use what it prepared.
        await this.releasePrepared();
        for (const listener of this.listeners.splice(0)) void listener.dispose();
        // Anything still buffered (a last line without newline) is delivered before the close.
        this.splitter.end();
        this.fireClose();
      }
    })();
    return this.closing;
  }

  private fireClose(): void {
    if (this.closeFired) return;
    this.closeFired = true;
    this.onclose?.();
  }

  private handleLine(line: string): void {
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(JSON.parse(line));
    } catch {
      this.reportNoise(line);
      return;
    }
    noteWireText(message, line);
    if (this.pendingProbe !== undefined && 'id' in message && message.id === this.pendingProbe && !('method' in message)) this.pendingProbe = undefined;
    if (!this.heardMcp) {
      this.heardMcp = true;
      clearTimeout(this.strayTimer);
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private reportNoise(line: string): void {
    this.noise += 1;
    const preview = line.length > NOISE_PREVIEW_CHARS ? `${line.slice(0, NOISE_PREVIEW_CHARS)}…` : line;
    this.proc?.stderr.pushLine(`[stdout noise] ${preview}`);
    if (!this.heardMcp) {
      if (this.strayLines.length < STRAY_LINES_QUOTED) this.strayLines.push(preview);
      // Silence is counted from the last line: a program still writing is not silent yet.
      if (this.awaitingAnswer) this.watchStrayOutput();
    }
    try {
      this.options.onStdoutNoise?.(line);
    } catch {
      // the observer's problem, not the connection's
    }
  }

  /** Non-MCP output and an unanswered request: unless an MCP message (or more output) comes within the grace, close. */
  private watchStrayOutput(): void {
    if (this.closing) return;
    clearTimeout(this.strayTimer);
    this.strayTimer = setTimeout(() => {
      if (this.heardMcp || this.closing) return;
      this.closedForStray = true;
      // No point waiting for it to notice its stdin closed: it is not listening there.
      void this.shutDown({ ...this.graces(), stdinGraceMs: 0 });
    }, this.options.strayOutputGraceMs ?? DEFAULT_STRAY_OUTPUT_GRACE_MS);
  }

  /** One shared wait per full pipe: every blocked send resumes on the same 'drain'. */
  private waitForDrain(stdin: Writable): Promise<void> {
    this.drainWait ??= new Promise<void>((resolve, reject) => {
      const done = (error?: Error): void => {
        stdin.off('drain', onDrain);
        stdin.off('close', onClose);
        this.drainWait = undefined;
        if (error) reject(error);
        else resolve();
      };
      const onDrain = (): void => done();
      const onClose = (): void => done(new SdkError(SdkErrorCode.NotConnected, 'Not connected: the server closed its input'));
      stdin.on('drain', onDrain);
      stdin.on('close', onClose);
    });
    return this.drainWait;
  }
}
