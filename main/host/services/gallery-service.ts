import { createHash } from 'node:crypto';
import type { BundleReviewData, GallerySearchData, InstallOutcomeData, GallerySettingsData } from '../../../preload/contract';
import { BUNDLE_LIMITS } from '../bundles/limits';
import { HarborError } from '../errors';
import type { RegistryClient } from '../gallery/client';
import { choiceAt, galleryEntry, type GalleryValues } from '../gallery/entry';
import type { ServerDetail } from '../gallery/server-json';
import { galleryServerView } from '../gallery/view';
import { runsContainer, sandboxForInstall, sandboxView, type InstallSandboxPort } from '../installs/sandbox';
import { freeSecretName } from '../installs/secret-names';
import { suggestServerName } from '../installs/server-name';
import { gallerySettings, normalizeRegistryUrl, withGallerySettings } from '../installs/settings';
import { isStdio, type ServerConfig } from '../registry/schema';
import { findSecretRefs } from '../secrets/references';
import type { BundleService } from './bundle-service';
import type { InstalledServers } from './installed-servers';
import type { RegistryEditing } from './registry-editing';
import type { RegistryState } from './registry-state';

export interface GalleryPick {
  /** The registry's base URL (default: the first configured one). */
  readonly registry?: string;
  /** The server.json name, e.g. `io.github.modelcontextprotocol/filesystem`. */
  readonly server: string;
  readonly version?: string;
  /** Which package or remote (packages first, then remotes); default: the first Harbor can run. */
  readonly option?: number;
}

export interface GalleryInstallOptions extends GalleryPick {
  readonly name?: string;
  readonly values: GalleryValues;
  readonly dryRun?: boolean;
  /** The person approved launching the command shown (CLI --yes). */
  readonly approveLaunch?: boolean;
  /** Variables that make a runtime load or fetch code, allowed by name (CLI --allow-env). */
  readonly allowEnv?: readonly string[];
  /** The person confirmed a name or host in mixed scripts (CLI --allow-lookalike). */
  readonly allowLookalike?: boolean;
}

/**
 * The MCP Registry gallery: search the registries the person configured, show each server's ways
 * to run and what they need, and install one — the same plan → keychain → registry steps as a
 * bundle (installed-servers.ts). MCPB packages are downloaded, checked against their fileSha256
 * and installed as bundles.
 */
export class GalleryService {
  constructor(
    private readonly registry: RegistryState,
    private readonly editing: RegistryEditing,
    private readonly installs: InstalledServers,
    private readonly bundles: BundleService,
    private readonly client: RegistryClient,
    /** Whether installed servers are sandboxed (the setting, this machine), and why not. */
    private readonly sandbox: InstallSandboxPort,
  ) {}

  /** The registries the gallery searches (the sandbox setting beside them is the sandbox service's). */
  settings(): GallerySettingsData {
    return { registries: [...gallerySettings(this.registry.file).registries] };
  }

  async setSettings(input: { registries: readonly string[] }): Promise<GallerySettingsData> {
    this.registry.requireValid();
    await this.editing.edit((current) => withGallerySettings(current, input));
    return this.settings();
  }

  async search(query: { query?: string; registry?: string; cursor?: string; limit?: number }): Promise<GallerySearchData> {
    const base = this.base(query.registry);
    const page = await this.client.search(base, { ...(query.query ? { search: query.query } : {}), ...(query.cursor ? { cursor: query.cursor } : {}), ...(query.limit ? { limit: query.limit } : {}) });
    return { registry: base, servers: page.servers.map(galleryServerView), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  }

  async install(options: GalleryInstallOptions): Promise<InstallOutcomeData> {
    const base = this.base(options.registry);
    const { server: detail } = await this.client.server(base, options.server, options.version ?? 'latest');
    const index = options.option ?? this.firstRunnable(detail);
    const choice = choiceAt(detail, index);
    if (choice.kind === 'package' && choice.pkg.registryType === 'mcpb') {
      throw new HarborError('BAD_REQUEST', `"${detail.name}" is an MCPB package: download and review it first (gallery.fetchBundle, or "harbor gallery add" does both).`);
    }
    const servers = this.registry.requireValid().servers;
    const { name, existing } = this.target(detail, servers, options.name);
    const previous = existing ? previousValues(existing) : {};
    const secretGiven = Object.values(options.values).some((v) => v !== '');
    const taken = await this.installs.takenSecretNames(secretGiven && options.dryRun !== true);
    const entry = galleryEntry(detail, choice, options.values, (key) => previousSecret(previous[key]) ?? freeSecretName(name, key, taken), previous);
    const command = typeof entry.launch.command === 'string' ? entry.launch.command : undefined;
    const [sandboxInstalls, sandboxStatus] = await Promise.all([this.sandbox.sandboxForInstalls(), this.sandbox.status()]);
    const sandbox = command !== undefined && !existing ? sandboxForInstall(command, sandboxInstalls) : undefined;
    const config: Record<string, unknown> = {
      ...(existing ? keptSwitches(existing) : sandbox !== undefined ? { sandbox } : {}),
      ...entry.launch,
      installed: { from: 'gallery', registry: base, name: detail.name, version: detail.version, kind: entry.kind },
    };
    const plan = this.installs.plan(name, config, {
      secrets: entry.secrets.map(({ key, name: secret }) => ({ key, secret })),
      sandbox: sandboxView(existing ? (isStdio(existing) ? existing.sandbox : undefined) : sandbox, sandboxStatus, {
        container: command !== undefined && runsContainer(command),
        updating: existing !== undefined,
      }),
      ...(existing ? { updatingFrom: existing.installed?.version ?? '' } : {}),
    });
    if (options.dryRun) return { plan, installed: false };
    const summary = await this.installs.write(plan, entry.secrets.map(({ name: secret, value }) => ({ name: secret, value })), options.approveLaunch === true, options);
    return { plan, installed: true, summary };
  }

  /** Downloads an MCPB package of a gallery server, checks its SHA-256, and holds it for review as a bundle. */
  async fetchBundle(pick: GalleryPick): Promise<BundleReviewData> {
    const base = this.base(pick.registry);
    const { server: detail } = await this.client.server(base, pick.server, pick.version ?? 'latest');
    const choice = choiceAt(detail, pick.option ?? this.firstRunnable(detail));
    if (choice.kind !== 'package' || choice.pkg.registryType !== 'mcpb') throw new HarborError('BAD_REQUEST', `That way of running "${detail.name}" is not an MCPB package.`);
    const expected = choice.pkg.fileSha256?.toLowerCase();
    if (!expected || !/^[a-f0-9]{64}$/.test(expected)) {
      throw new HarborError('BAD_REQUEST', `The MCPB package of "${detail.name}" has no fileSha256, so Harbor cannot check the download. Nothing was installed.`);
    }
    const bytes = await this.client.download(choice.pkg.identifier, BUNDLE_LIMITS.fileBytes);
    const actual = createHash('sha256').update(bytes).digest('hex');
    if (actual !== expected) {
      throw new HarborError('BAD_REQUEST', `The download of ${choice.pkg.identifier} does not match the fileSha256 the registry lists (expected ${expected}, got ${actual}). Nothing was installed.`);
    }
    return this.bundles.openBytes(bytes, choice.pkg.identifier.split('/').pop() || `${suggestServerName(detail.name)}.mcpb`);
  }

  /** Is this server.json name's entry among the packages/remotes an MCPB package (the CLI installs it as a bundle)? */
  async isBundle(pick: GalleryPick): Promise<boolean> {
    const { server: detail } = await this.client.server(this.base(pick.registry), pick.server, pick.version ?? 'latest');
    const choice = choiceAt(detail, pick.option ?? this.firstRunnable(detail));
    return choice.kind === 'package' && choice.pkg.registryType === 'mcpb';
  }

  private base(registry: string | undefined): string {
    return registry ? normalizeRegistryUrl(registry) : gallerySettings(this.registry.file).registries[0]!;
  }

  private firstRunnable(detail: ServerDetail): number {
    const view = galleryServerView({ server: detail });
    const option = view.options.find((o) => o.supported);
    if (!option) throw new HarborError('BAD_REQUEST', `Harbor cannot run any of the ways "${detail.name}" is offered: ${view.options.map((o) => o.note ?? o.type).join(' ') || 'it lists no packages or remotes'}.`);
    return option.index;
  }

  private target(detail: ServerDetail, servers: ReadonlyMap<string, ServerConfig>, requested?: string): { name: string; existing?: ServerConfig } {
    const earlier = [...servers].find(([, c]) => c.installed?.from === 'gallery' && c.installed.name === detail.name)?.[0];
    const name = requested ?? earlier ?? suggestServerName(detail.name);
    const existing = servers.get(name);
    if (!existing) return { name };
    if (existing.installed?.from !== 'gallery' || existing.installed.name !== detail.name) {
      throw new HarborError('SERVER_EXISTS', `A server named "${name}" already exists and was not installed from "${detail.name}". Pick another name (--name NAME). Nothing was installed.`);
    }
    return { name, existing };
  }
}

/** The env (or header) values a gallery server had: an update keeps what the person does not give again. */
function previousValues(config: ServerConfig): Record<string, string> {
  return { ...((isStdio(config) ? config.env : config.headers) ?? {}) };
}

function previousSecret(value: string | undefined): string | undefined {
  const refs = value ? findSecretRefs(value) : [];
  return refs.length === 1 && value === `\${secret:${refs[0]}}` ? refs[0] : undefined;
}

function keptSwitches(config: ServerConfig): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const field of ['enabled', 'trusted', 'timeoutMs', 'probeTimeoutMs', 'disabledTools', 'sandbox'] as const) {
    const value = (config as Record<string, unknown>)[field];
    if (value !== undefined) kept[field] = value;
  }
  return kept;
}
