import { HarborError } from '../errors';
import { suggestServerName } from '../installs/server-name';
import { compareVersions } from '../installs/versions';
import type { InstalledFrom } from '../registry/install-fields';
import type { ServerConfig } from '../registry/schema';
import type { BundleManifest } from './manifest';

export type InstalledBundle = Extract<InstalledFrom, { from: 'bundle' }>;

/** Which server a bundle installs into: a new one, or the server an earlier version of it was installed as. */
export interface BundleTarget {
  readonly name: string;
  readonly existing?: { readonly config: ServerConfig; readonly installed: InstalledBundle };
}

export function installedBundleOf(config: ServerConfig | undefined): InstalledBundle | undefined {
  const installed = config?.installed;
  return installed?.from === 'bundle' ? installed : undefined;
}

/** The server already installed from this bundle (by the manifest's name), if any. */
export function findInstalled(manifest: BundleManifest, servers: ReadonlyMap<string, ServerConfig>): { name: string; installed: InstalledBundle } | undefined {
  for (const [name, config] of servers) {
    const installed = installedBundleOf(config);
    if (installed?.bundle === manifest.name) return { name, installed };
  }
  return undefined;
}

/**
 * The server a bundle goes to. `requested` (--name) names it; otherwise an earlier install of the
 * same bundle is updated, or a new server gets a name from the manifest. A name taken by another
 * server is refused (never overwritten); an older version than the installed one is refused.
 */
export function chooseTarget(manifest: BundleManifest, servers: ReadonlyMap<string, ServerConfig>, requested?: string): BundleTarget {
  const earlier = findInstalled(manifest, servers);
  const name = requested ?? earlier?.name ?? suggestServerName(manifest.name);
  const config = servers.get(name);
  if (!config) return { name };
  const installed = installedBundleOf(config);
  if (!installed || installed.bundle !== manifest.name) {
    throw new HarborError('SERVER_EXISTS', `A server named "${name}" already exists and was not installed from this bundle. Pick another name (--name NAME). Nothing was installed.`);
  }
  if (compareVersions(manifest.version, installed.version) < 0) {
    throw new HarborError(
      'BAD_REQUEST',
      `"${name}" has version ${installed.version} of this bundle; this file is the older ${manifest.version}. Remove the server first to go back to an older version. Nothing was installed.`,
    );
  }
  return { name, existing: { config, installed } };
}
