import type { BundleReviewData } from '../../../preload/contract';
import type { SandboxView } from '../installs/sandbox';
import type { ReadBundle } from './read-bundle';
import { findInstalled } from './target';
import { suggestServerName } from '../installs/server-name';
import { defaultOf } from './user-config';
import type { ServerConfig } from '../registry/schema';

/** What the person reviews before installing a bundle: all of it from the checked manifest. */
export function reviewBundle(
  read: ReadBundle,
  context: { readonly id: string; readonly fileName?: string; readonly servers: ReadonlyMap<string, ServerConfig>; readonly sandbox: SandboxView },
): BundleReviewData {
  const { manifest } = read;
  const earlier = findInstalled(manifest, context.servers);
  return {
    id: context.id,
    ...(context.fileName ? { fileName: context.fileName } : {}),
    name: manifest.name,
    ...(manifest.display_name ? { displayName: manifest.display_name } : {}),
    version: manifest.version,
    description: manifest.description,
    ...(manifest.long_description ? { longDescription: manifest.long_description } : {}),
    author: { name: manifest.author.name, ...(manifest.author.email ? { email: manifest.author.email } : {}), ...(manifest.author.url ? { url: manifest.author.url } : {}) },
    ...(manifest.homepage ? { homepage: manifest.homepage } : {}),
    ...(manifest.repository ? { repository: manifest.repository.url } : {}),
    ...(manifest.license ? { license: manifest.license } : {}),
    manifestVersion: read.manifestVersion,
    serverType: manifest.server.type,
    tools: (manifest.tools ?? []).map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}) })),
    toolsGenerated: manifest.tools_generated === true,
    prompts: (manifest.prompts ?? []).map((p) => ({ name: p.name, ...(p.description ? { description: p.description } : {}) })),
    promptsGenerated: manifest.prompts_generated === true,
    settings: Object.entries(manifest.user_config ?? {}).map(([key, option]) => ({
      key,
      type: option.type,
      title: option.title,
      description: option.description,
      required: option.required === true,
      sensitive: option.sensitive === true,
      multiple: option.multiple === true,
      // A sensitive setting's default is never shown: it may be a credential.
      ...(option.default !== undefined && !option.sensitive ? { default: defaultOf(option)! } : {}),
      ...(option.min !== undefined ? { min: option.min } : {}),
      ...(option.max !== undefined ? { max: option.max } : {}),
    })),
    signature: read.signature,
    sandbox: context.sandbox,
    files: read.entries.filter((e) => !e.directory).length,
    unpackedBytes: read.entries.reduce((sum, e) => sum + e.size, 0),
    suggestedName: earlier?.name ?? suggestServerName(manifest.name),
    ...(earlier ? { existing: { server: earlier.name, version: earlier.installed.version } } : {}),
  };
}
