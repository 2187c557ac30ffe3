import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { BundleReviewData, InstallOutcomeData } from '../../../preload/contract';
import { extractArchive } from '../bundles/archive';
import { bundleEntry } from '../bundles/bundle-entry';
import type { BundleFolders } from '../bundles/folders';
import { BUNDLE_LIMITS, MIB } from '../bundles/limits';
import { readBundle, type ReadBundle } from '../bundles/read-bundle';
import { reviewBundle } from '../bundles/review';
import { chooseTarget, findInstalled, installedBundleOf } from '../bundles/target';
import type { GivenValue } from '../bundles/user-config';
import { HarborError } from '../errors';
import type { HostEvents } from '../events';
import { sandboxForInstall, sandboxView, type InstallSandboxPort, type SandboxView } from '../installs/sandbox';
import { freeSecretName } from '../installs/secret-names';
import type { SandboxConfig } from '../registry/sandbox-config';
import { isStdio } from '../registry/schema';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import type { InstalledServers } from './installed-servers';
import type { RegistryState } from './registry-state';

interface Staged {
  readonly read: ReadBundle;
  readonly fileName: string;
  /** Opened by the desktop app (file association): listed by `pending` until installed or discarded. */
  readonly opened: boolean;
}

interface Upload {
  readonly fileName: string;
  readonly chunks: Buffer[];
  bytes: number;
}

/** At most this many bundles wait for review at once (each holds its bytes in memory). */
const MAX_STAGED = 4;

export interface InstallBundleOptions {
  readonly name?: string;
  readonly values: Readonly<Record<string, GivenValue>>;
  readonly dryRun?: boolean;
  /** The person approved launching the command shown (CLI --yes). */
  readonly approveLaunch?: boolean;
  /** Variables that make a runtime load or fetch code, allowed by name (CLI --allow-env). */
  readonly allowEnv?: readonly string[];
  /** The person confirmed a name or host in mixed scripts (CLI --allow-lookalike). */
  readonly allowLookalike?: boolean;
}

/**
 * MCP bundles (.mcpb): read and checked once (a file the CLI or the desktop app opened, or an
 * upload from the page), held for review under an id, then installed — unpacked under the data
 * folder's bundles/NAME/VERSION/, the registry entry written with the person's settings (sensitive
 * ones in the keychain, bound to this server). Installs and the removal of unused bundle folders
 * run one at a time. Nothing is written until the bundle has been read whole and its entry checked.
 */
export class BundleService implements Disposable {
  private readonly staged = new Map<string, Staged>();
  private readonly uploads = new Map<string, Upload>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly registry: RegistryState,
    private readonly installs: InstalledServers,
    private readonly folders: BundleFolders,
    private readonly events: HostEvents,
    /** Whether installed servers are sandboxed (the setting, this machine), and why not. */
    private readonly sandbox: InstallSandboxPort,
    /** Where uv is (Python bundles run through it), or undefined when it is not installed. */
    private readonly findUv: () => Promise<string | undefined>,
  ) {
    trackDisposable(this);
  }

  /** Reads a .mcpb from disk (the CLI; the desktop app with `opened`) and holds it for review. */
  async openFile(path: string, opened = false): Promise<BundleReviewData> {
    const size = await stat(path).then(
      (info) => (info.isFile() ? info.size : -1),
      () => -2,
    );
    if (size === -2) throw new HarborError('CONFIG_IO', `Cannot read ${path}: no such file. Nothing was installed.`);
    if (size === -1) throw new HarborError('BAD_REQUEST', `${path} is not a file. Nothing was installed.`);
    if (size > BUNDLE_LIMITS.fileBytes) throw tooLarge(size);
    const review = await this.stage(await readFile(path), basename(path), opened);
    if (opened) this.events.emit('bundles.opened', review);
    return review;
  }

  /** A bundle already in memory (a gallery download, checked against its hash) held for review. */
  openBytes(bytes: Buffer, fileName: string): Promise<BundleReviewData> {
    if (bytes.length > BUNDLE_LIMITS.fileBytes) throw tooLarge(bytes.length);
    return this.stage(bytes, fileName, false);
  }

  /** One piece of an upload from the page; the last one reads the bundle and returns its review. */
  async upload(input: { uploadId?: string; fileName: string; chunk: string; last: boolean }): Promise<{ uploadId: string; bytes: number; review?: BundleReviewData }> {
    const uploadId = input.uploadId ?? randomBytes(12).toString('hex');
    const upload = this.uploads.get(uploadId) ?? (input.uploadId === undefined ? { fileName: input.fileName, chunks: [], bytes: 0 } : undefined);
    if (!upload) throw new HarborError('BAD_REQUEST', 'That upload is unknown or already finished: send the bundle again.');
    const chunk = Buffer.from(input.chunk, 'base64');
    upload.bytes += chunk.length;
    if (upload.bytes > BUNDLE_LIMITS.fileBytes) {
      this.uploads.delete(uploadId);
      throw tooLarge(upload.bytes);
    }
    upload.chunks.push(chunk);
    if (!input.last) {
      this.uploads.set(uploadId, upload);
      if (this.uploads.size > MAX_STAGED) this.uploads.delete(this.uploads.keys().next().value!);
      return { uploadId, bytes: upload.bytes };
    }
    this.uploads.delete(uploadId);
    return { uploadId, bytes: upload.bytes, review: await this.stage(Buffer.concat(upload.chunks), upload.fileName, false) };
  }

  /** Bundles the desktop app opened that still wait for the person. */
  pending(): Promise<BundleReviewData[]> {
    return Promise.all([...this.staged].filter(([, s]) => s.opened).map(([id, s]) => this.review(id, s)));
  }

  discard(id: string): boolean {
    return this.staged.delete(id);
  }

  /** Installs a held bundle (or, dryRun, returns exactly what installing would write and run). */
  install(id: string, options: InstallBundleOptions): Promise<InstallOutcomeData> {
    return this.serially(() => this.installNow(id, options));
  }

  /** Removes bundle folders no installed server refers to (after a server was removed or updated). */
  collectGarbage(): Promise<void> {
    return this.serially(async () => {
      if (!this.registry.file) return; // a broken registry says nothing about what is in use
      const inUse = new Set<string>();
      for (const config of this.registry.servers.values()) {
        const dir = installedBundleOf(config)?.dir;
        if (dir && this.folders.owns(dir)) inUse.add(dir);
      }
      await this.folders.collect(inUse);
    });
  }

  private async installNow(id: string, options: InstallBundleOptions): Promise<InstallOutcomeData> {
    const staged = this.staged.get(id);
    if (!staged) throw new HarborError('BAD_REQUEST', 'That bundle is no longer waiting (it was installed or discarded): open the file again.');
    const { read } = staged;
    const servers = this.registry.requireValid().servers;
    const target = chooseTarget(read.manifest, servers, options.name);
    const [sandbox, sandboxStatus] = await Promise.all([this.sandbox.sandboxForInstalls(), this.sandbox.status()]);
    const sensitiveGiven = Object.entries(read.manifest.user_config ?? {}).some(([key, o]) => o.sensitive && options.values[key] !== undefined && options.values[key] !== '');
    const taken = target.existing ? new Set<string>() : await this.installs.takenSecretNames(sensitiveGiven && options.dryRun !== true);
    const dir = this.folders.target(target.name, read.manifest.version);
    const { config, answered } = await bundleEntry({
      read,
      target,
      given: options.values,
      secretName: (key) => freeSecretName(target.name, key, taken),
      dir,
      uvPath: await this.findUv(),
      sandbox,
    });
    const plan = this.installs.plan(target.name, config, {
      secrets: answered.secrets.map(({ key, name }) => ({ key, secret: name })),
      sandbox: sandboxView(config.sandbox as SandboxConfig | undefined, sandboxStatus, { updating: target.existing !== undefined }),
      ...(target.existing ? { updatingFrom: target.existing.installed.version } : {}),
    });
    if (options.dryRun) return { plan, installed: false };
    // Before anything is unpacked: a variable that loads code needs the person's own yes.
    this.installs.requireAllowed(plan, options);

    const stage = this.folders.stage();
    try {
      await extractArchive(read.zip, stage);
    } catch (error) {
      await this.folders.discard(stage);
      throw error;
    }
    const placed = await this.folders.commit(stage, dir);
    let summary;
    try {
      summary = await this.installs.write(plan, answered.secrets.map(({ name, value }) => ({ name, value })), options.approveLaunch === true, options);
    } catch (error) {
      await placed.undo();
      await this.folders.discard(stage);
      throw error;
    }
    await placed.done();
    this.staged.delete(id);
    return { plan, installed: true, summary };
  }

  private async stage(bytes: Buffer, fileName: string, opened: boolean): Promise<BundleReviewData> {
    const read = await readBundle(bytes, this.folders.scratch);
    const id = randomBytes(12).toString('hex');
    const staged = { read, fileName, opened };
    this.staged.set(id, staged);
    if (this.staged.size > MAX_STAGED) this.staged.delete(this.staged.keys().next().value!);
    return this.review(id, staged);
  }

  private async review(id: string, staged: Staged): Promise<BundleReviewData> {
    return reviewBundle(staged.read, { id, fileName: staged.fileName, servers: this.registry.servers, sandbox: await this.reviewSandbox(staged.read) });
  }

  /** The sandbox before the settings are answered: an update keeps the installed server's; a new one gets the sandbox's choice for its runtime. */
  private async reviewSandbox(read: ReadBundle): Promise<SandboxView> {
    const status = await this.sandbox.status();
    const earlier = findInstalled(read.manifest, this.registry.servers);
    if (earlier) {
      const config = this.registry.servers.get(earlier.name);
      return sandboxView(config && isStdio(config) ? config.sandbox : undefined, status, { updating: true });
    }
    const { server } = read.manifest;
    // Python bundles run through uv (bundles/launch-config.ts), which downloads what they need.
    const command = server.type === 'python' || server.type === 'uv' ? 'uv' : server.mcp_config.command;
    return sandboxView(sandboxForInstall(command, await this.sandbox.sandboxForInstalls()), status);
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined); // the queue only orders: `run`'s failure goes to its caller
    return run;
  }

  async dispose(): Promise<void> {
    markAsDisposed(this);
    this.staged.clear();
    this.uploads.clear();
    await this.queue;
  }
}

function tooLarge(bytes: number): HarborError {
  return new HarborError('BAD_REQUEST', `This bundle is ${Math.ceil(bytes / MIB)} MiB; Harbor installs bundles up to ${BUNDLE_LIMITS.fileBytes / MIB} MiB. Nothing was installed.`);
}
