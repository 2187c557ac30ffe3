import { HarborError } from '../errors';
import { InstallsConfig, OFFICIAL_MCP_REGISTRY } from '../registry/install-fields';
import { registryErrorMap } from '../registry/messages';
import type { RegistryFile } from '../registry/schema';
import { formatIssues } from '../registry/store';

/** The "installs" settings with their defaults filled in. */
export interface InstallSettings {
  /** Installed stdio servers get `"sandbox": true`. */
  readonly sandbox: boolean;
  /** The MCP Registry base URLs the gallery searches, first one first. */
  readonly registries: readonly string[];
}

export function installSettings(file: RegistryFile | undefined): InstallSettings {
  const installs = file?.installs;
  return {
    sandbox: installs?.sandbox ?? true,
    registries: installs?.registries?.length ? installs.registries.map(normalizeRegistryUrl) : [OFFICIAL_MCP_REGISTRY],
  };
}

/** A registry base URL without a trailing slash (the API paths are appended). */
export function normalizeRegistryUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/** The registry with its "installs" entry replaced (unknown fields of the old entry kept). */
export function withInstallSettings(file: RegistryFile, input: { sandbox: boolean; registries: readonly string[] }): RegistryFile {
  const registries = [...new Set(input.registries.map(normalizeRegistryUrl).filter((url) => url !== ''))];
  const next = { ...(file.installs ?? {}), sandbox: input.sandbox, registries };
  const parsed = InstallsConfig.safeParse(next, { error: registryErrorMap });
  if (!parsed.success) {
    const lines = formatIssues(parsed.error.issues.map((i) => ({ ...i, path: ['installs', ...i.path] })));
    throw new HarborError('BAD_REQUEST', `The install settings have problems: ${lines.join('; ')}.`, lines.join('\n'));
  }
  if (registries.length === 0) throw new HarborError('BAD_REQUEST', 'The gallery needs at least one registry URL, e.g. https://registry.modelcontextprotocol.io.');
  return { ...file, installs: parsed.data };
}
