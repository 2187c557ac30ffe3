/**
 * Installing servers: MCP bundles (.mcpb) and the MCP Registry gallery. Reviews show everything a
 * person decides on — what the server is, what it declares, the exact command, the signature and
 * the sandbox — before anything is written or run.
 */
import { z } from 'zod';
import { ServerConfigData } from './registry';
import { ServerSummary } from './shared';

const Empty = z.object({}).strict();

/** What an installed server may do, as the review says it. */
export const SandboxData = z.object({
  /** The registry entry will have "sandbox". */
  requested: z.boolean(),
  /** The server will run inside the sandbox on this machine. */
  enforced: z.boolean(),
  allowed: z.array(z.string()),
  /** Why it is not sandboxed (the setting is off, this machine cannot, a container), or why it will not start. */
  note: z.string().optional(),
});
export type SandboxData = z.infer<typeof SandboxData>;

export const SignatureData = z.object({
  status: z.enum(['signed', 'self-signed', 'unsigned', 'unverified']),
  publisher: z.string().optional(),
  issuer: z.string().optional(),
  validTo: z.string().optional(),
  fingerprint: z.string().optional(),
});
export type SignatureData = z.infer<typeof SignatureData>;

/** One user_config setting of a bundle: a field of the install form. */
export const BundleSettingData = z.object({
  key: z.string(),
  type: z.enum(['string', 'number', 'boolean', 'directory', 'file']),
  title: z.string(),
  description: z.string(),
  required: z.boolean(),
  sensitive: z.boolean(),
  multiple: z.boolean(),
  default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
});
export type BundleSettingData = z.infer<typeof BundleSettingData>;

/** A bundle read and checked, waiting (staged under `id`) for the person to install or discard it. */
export const BundleReviewData = z.object({
  id: z.string(),
  fileName: z.string().optional(),
  name: z.string(),
  displayName: z.string().optional(),
  version: z.string(),
  description: z.string(),
  longDescription: z.string().optional(),
  author: z.object({ name: z.string(), email: z.string().optional(), url: z.string().optional() }),
  homepage: z.string().optional(),
  repository: z.string().optional(),
  license: z.string().optional(),
  manifestVersion: z.string(),
  serverType: z.string(),
  tools: z.array(z.object({ name: z.string(), description: z.string().optional() })),
  toolsGenerated: z.boolean(),
  prompts: z.array(z.object({ name: z.string(), description: z.string().optional() })),
  promptsGenerated: z.boolean(),
  settings: z.array(BundleSettingData),
  signature: SignatureData,
  sandbox: SandboxData,
  files: z.number().int(),
  unpackedBytes: z.number().int(),
  /** The name the server gets unless the person picks another. */
  suggestedName: z.string(),
  /** A server already installed from this bundle: installing updates it in place, keeping its settings. */
  existing: z.object({ server: z.string(), version: z.string() }).optional(),
});
export type BundleReviewData = z.infer<typeof BundleReviewData>;

/** One variable or header an install sets, as the review shows it. */
export const PlanValue = z.object({ name: z.string(), value: z.string(), secret: z.string().optional(), loadsCode: z.boolean().optional() });
export type PlanValue = z.infer<typeof PlanValue>;

/** Variables that make a runtime load or fetch code, allowed by the person one by one (the CLI's --allow-env). */
const AllowEnv = z.array(z.string().min(1).max(200)).max(100);

/** Exactly what an install writes and runs (a dry run shows it first). */
export const InstallPlanData = z.object({
  server: z.string(),
  transport: z.enum(['stdio', 'http']),
  /** The exact command line (Harbor's variables expanded, secrets as references), or the URL. */
  target: z.string(),
  envNames: z.array(z.string()),
  headerNames: z.array(z.string()),
  /**
   * Every environment variable (stdio) or header (http) with the value that will be set; a secret's
   * value is never here (`secret`: its keychain name). `loadsCode`: a variable that makes a runtime
   * load or fetch code (NODE_OPTIONS, LD_PRELOAD, NPM_CONFIG_*…), written only when the person allows it.
   */
  env: z.array(PlanValue).optional(),
  headers: z.array(PlanValue).optional(),
  /** The names among `env` that load or fetch code: the install needs each in `allowEnv`. */
  codeLoadingEnv: z.array(z.string()).optional(),
  /** A remote's host in its Unicode form and in punycode (shown side by side). */
  host: z.object({ unicode: z.string(), ascii: z.string() }).optional(),
  /** What looks like something else (a name or host in mixed scripts): installed only with `allowLookalike`. */
  lookalike: z.array(z.string()).optional(),
  /** Values that go to the keychain, by setting and secret name (never the value). */
  secrets: z.array(z.object({ key: z.string(), secret: z.string() })),
  sandbox: SandboxData.optional(),
  /** The registry entry as it will be written. */
  config: ServerConfigData,
  /** Updating a server installed before: its old version (settings kept). */
  updatingFrom: z.string().optional(),
});
export type InstallPlanData = z.infer<typeof InstallPlanData>;

export const InstallOutcomeData = z.object({
  plan: InstallPlanData,
  installed: z.boolean(),
  summary: ServerSummary.optional(),
});
export type InstallOutcomeData = z.infer<typeof InstallOutcomeData>;

/** A value for one setting: typed in the app, text from the CLI. */
const GivenValue = z.union([z.string().max(65_536), z.number(), z.boolean(), z.array(z.string().max(4096)).max(64)]);
const GivenValues = z.record(z.string().max(200), GivenValue);

/** One input a gallery package or remote needs: an environment variable, argument, header or URL variable. */
export const GalleryInputData = z.object({
  key: z.string(),
  kind: z.enum(['env', 'argument', 'header', 'variable']),
  description: z.string().optional(),
  required: z.boolean(),
  secret: z.boolean(),
  default: z.string().optional(),
  choices: z.array(z.string()).optional(),
  format: z.string().optional(),
  placeholder: z.string().optional(),
  repeated: z.boolean().optional(),
});
export type GalleryInputData = z.infer<typeof GalleryInputData>;

/** One way to run a gallery server: a package (npm, PyPI, OCI, NuGet, MCPB) or a remote URL. */
export const GalleryOptionData = z.object({
  index: z.number().int(),
  kind: z.enum(['package', 'remote']),
  type: z.string(),
  identifier: z.string(),
  version: z.string().optional(),
  runtimeHint: z.string().optional(),
  transport: z.string(),
  fileSha256: z.string().optional(),
  supported: z.boolean(),
  note: z.string().optional(),
  inputs: z.array(GalleryInputData),
});
export type GalleryOptionData = z.infer<typeof GalleryOptionData>;

export const GalleryServerData = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  version: z.string(),
  repository: z.object({ url: z.string(), source: z.string().optional(), subfolder: z.string().optional() }).optional(),
  websiteUrl: z.string().optional(),
  status: z.string().optional(),
  options: z.array(GalleryOptionData),
});
export type GalleryServerData = z.infer<typeof GalleryServerData>;

export const GallerySearchData = z.object({
  registry: z.string(),
  servers: z.array(GalleryServerData),
  nextCursor: z.string().optional(),
});
export type GallerySearchData = z.infer<typeof GallerySearchData>;

/** The MCP Registries the gallery searches (whether installs are sandboxed is `sandbox.status`). */
export const GallerySettingsData = z.object({
  registries: z.array(z.string()),
});
export type GallerySettingsData = z.infer<typeof GallerySettingsData>;

const GalleryPick = {
  registry: z.string().min(1).max(2048),
  server: z.string().min(1).max(200),
  version: z.string().min(1).max(255),
  option: z.number().int().min(0),
};

/** Largest piece of a bundle one upload frame carries (base64 of 512 KiB). */
export const BUNDLE_UPLOAD_CHUNK_CHARS = 699_052;

const command = <Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res) => ({ request, response });

export const installCommands = {
  /**
   * Sends a bundle from the page in pieces (browser mode has no file paths): the first call has no
   * uploadId; the last (`last: true`) reads and checks the bundle and returns its review. Capped in size.
   */
  'bundles.upload': command(
    z.object({ uploadId: z.string().min(1).max(64).optional(), fileName: z.string().min(1).max(255), chunk: z.string().max(BUNDLE_UPLOAD_CHUNK_CHARS), last: z.boolean() }).strict(),
    z.object({ uploadId: z.string(), bytes: z.number().int(), review: BundleReviewData.optional() }),
  ),
  /** Bundles the desktop app was asked to open (a double-clicked .mcpb) and that wait for the person. */
  'bundles.pending': command(Empty, z.array(BundleReviewData)),
  /** Installs a reviewed bundle (dryRun: only the plan). Sensitive settings go to the keychain. */
  'bundles.install': command(
    z.object({ id: z.string().min(1).max(64), name: z.string().trim().min(1).max(100).optional(), values: GivenValues, dryRun: z.boolean().optional(), allowEnv: AllowEnv.optional(), allowLookalike: z.boolean().optional() }).strict(),
    InstallOutcomeData,
  ),
  'bundles.discard': command(z.object({ id: z.string().min(1).max(64) }).strict(), z.object({ discarded: z.boolean() })),
  'gallery.settings': command(Empty, GallerySettingsData),
  'gallery.setSettings': command(z.object({ registries: z.array(z.string().max(2048)).max(20) }).strict(), GallerySettingsData),
  /** One page of the registry's servers (latest versions) matching `query`. */
  'gallery.search': command(
    z.object({ query: z.string().max(200).optional(), registry: z.string().max(2048).optional(), cursor: z.string().max(2048).optional(), limit: z.number().int().min(1).max(100).optional() }).strict(),
    GallerySearchData,
  ),
  /** Installs one way of running a gallery server (dryRun: only the plan); secret inputs go to the keychain. */
  'gallery.install': command(
    z.object({ ...GalleryPick, name: z.string().trim().min(1).max(100).optional(), values: z.record(z.string().max(200), z.union([z.string().max(65_536), z.array(z.string().max(4096)).max(64)])), dryRun: z.boolean().optional(), allowEnv: AllowEnv.optional(), allowLookalike: z.boolean().optional() }).strict(),
    InstallOutcomeData,
  ),
  /** Downloads an MCPB package of a gallery server (checked against its fileSha256) and returns its review. */
  'gallery.fetchBundle': command(z.object(GalleryPick).strict(), BundleReviewData),
};

export const installEvents = {
  /** The desktop app was asked to open a bundle (file association): show its review. */
  'bundles.opened': BundleReviewData,
};
