import { z } from 'zod';
import { InstallsConfig as SandboxInstallsSetting } from './sandbox-config';

/**
 * The registry's fields for installed servers: where a server came from (a bundle, the MCP
 * Registry gallery) and the gallery's part of the top-level "installs" entry. The "sandbox" field
 * and the "installs.sandbox" setting are the sandbox's (sandbox-config.ts). Kept beside schema.ts
 * so the installers and the schema agree on one shape.
 */

/** The official MCP Registry: the gallery's default source. */
export const OFFICIAL_MCP_REGISTRY = 'https://registry.modelcontextprotocol.io';

const StringList = z.array(z.string());

/** A user_config value of a bundle as kept for the next update: the value, or the keychain secret holding it. */
export const KeptUserValue = z.union([z.string(), z.number(), z.boolean(), StringList, z.looseObject({ secret: z.string() })]);
export type KeptUserValue = z.infer<typeof KeptUserValue>;

/** Where an installed server came from, so an update can keep the person's settings and removal its files. */
export const InstalledFrom = z.discriminatedUnion('from', [
  z.looseObject({
    from: z.literal('bundle'),
    /** The manifest's `name`: a re-install of the same bundle updates this server. */
    bundle: z.string(),
    version: z.string(),
    /** The unpacked bundle (under the data folder's bundles/). */
    dir: z.string(),
    /** The person's user_config answers; sensitive ones as `{"secret": NAME}`. */
    userConfig: z.record(z.string(), KeptUserValue).optional(),
  }),
  z.looseObject({
    from: z.literal('gallery'),
    registry: z.string(),
    /** The server.json `name`, e.g. `io.github.modelcontextprotocol/filesystem`. */
    name: z.string(),
    version: z.string(),
    /** Which way it runs: `npm`, `pypi`, `oci`, `nuget`, `mcpb` or `remote`. */
    kind: z.string(),
  }),
]);
export type InstalledFrom = z.infer<typeof InstalledFrom>;

/** The top-level "installs" entry: the sandbox setting (sandbox-config.ts) and where the gallery looks. */
export const InstallsConfig = SandboxInstallsSetting.extend({
  /** MCP Registry base URLs the gallery searches (default: the official one). */
  registries: z.array(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })).optional(),
});
export type InstallsConfig = z.infer<typeof InstallsConfig>;
