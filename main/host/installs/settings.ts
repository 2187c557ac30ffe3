import { HarborError } from '../errors';
import { InstallsConfig, OFFICIAL_MCP_REGISTRY } from '../registry/install-fields';
import { registryErrorMap } from '../registry/messages';
import type { RegistryFile } from '../registry/schema';
import { formatIssues } from '../registry/store';

/**
 * The gallery's part of the registry's "installs" entry. Whether installed servers are sandboxed
 * is the sandbox's setting in the same entry (registry/sandbox-config.ts, services/sandbox-service.ts).
 */
export interface GallerySettings {
  /** The MCP Registry base URLs the gallery searches, first one first. */
  readonly registries: readonly string[];
}

export function gallerySettings(file: RegistryFile | undefined): GallerySettings {
  const registries = file?.installs?.registries;
  return { registries: registries?.length ? registries.map(normalizeRegistryUrl) : [OFFICIAL_MCP_REGISTRY] };
}

/** A registry base URL without a trailing slash (the API paths are appended). */
export function normalizeRegistryUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/** The registry with the gallery's registries replaced (the rest of "installs", the sandbox setting included, kept). */
export function withGallerySettings(file: RegistryFile, input: { registries: readonly string[] }): RegistryFile {
  const registries = [...new Set(input.registries.map(normalizeRegistryUrl).filter((url) => url !== ''))];
  const next = { ...(file.installs ?? {}), registries };
  const parsed = InstallsConfig.safeParse(next, { error: registryErrorMap });
  if (!parsed.success) {
    const lines = formatIssues(parsed.error.issues.map((i) => ({ ...i, path: ['installs', ...i.path] })));
    throw new HarborError('BAD_REQUEST', `The gallery settings have problems: ${lines.join('; ')}.`, lines.join('\n'));
  }
  if (registries.length === 0) throw new HarborError('BAD_REQUEST', 'The gallery needs at least one registry URL, e.g. https://registry.modelcontextprotocol.io.');
  return { ...file, installs: parsed.data };
}
