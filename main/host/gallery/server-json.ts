import { z } from 'zod';

/**
 * server.json as the MCP Registry API serves it (`GET /v0.1/servers`, `…/versions/{version}`),
 * after the registry's OpenAPI description. Loose objects: fields a newer registry adds are kept
 * and ignored; what Harbor reads is checked.
 */
export const RegistryInput = z.looseObject({
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  format: z.string().optional(),
  value: z.string().optional(),
  isSecret: z.boolean().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
});
export type RegistryInput = z.infer<typeof RegistryInput>;

const WithVariables = RegistryInput.extend({ variables: z.record(z.string(), RegistryInput).optional() });

export const KeyValueInput = WithVariables.extend({ name: z.string().min(1) });
export type KeyValueInput = z.infer<typeof KeyValueInput>;

export const RegistryArgument = WithVariables.extend({
  type: z.enum(['positional', 'named']),
  name: z.string().optional(),
  valueHint: z.string().optional(),
  isRepeated: z.boolean().optional(),
});
export type RegistryArgument = z.infer<typeof RegistryArgument>;

export const RegistryTransport = z.looseObject({
  type: z.string(),
  url: z.string().optional(),
  headers: z.array(KeyValueInput).optional(),
  variables: z.record(z.string(), RegistryInput).optional(),
});
export type RegistryTransport = z.infer<typeof RegistryTransport>;

export const RegistryPackage = z.looseObject({
  registryType: z.string(),
  registryBaseUrl: z.string().optional(),
  identifier: z.string().min(1),
  version: z.string().optional(),
  fileSha256: z.string().optional(),
  runtimeHint: z.string().optional(),
  transport: RegistryTransport.optional(),
  runtimeArguments: z.array(RegistryArgument).optional(),
  packageArguments: z.array(RegistryArgument).optional(),
  environmentVariables: z.array(KeyValueInput).optional(),
});
export type RegistryPackage = z.infer<typeof RegistryPackage>;

export const ServerDetail = z.looseObject({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().default(''),
  version: z.string().min(1),
  repository: z.looseObject({ url: z.string(), source: z.string().optional(), subfolder: z.string().optional() }).optional(),
  websiteUrl: z.string().optional(),
  packages: z.array(RegistryPackage).optional(),
  remotes: z.array(RegistryTransport).optional(),
});
export type ServerDetail = z.infer<typeof ServerDetail>;

export const ServerResponse = z.looseObject({
  server: ServerDetail,
  _meta: z.record(z.string(), z.unknown()).optional(),
});
export type ServerResponse = z.infer<typeof ServerResponse>;

export const ServerList = z.looseObject({
  servers: z.array(z.unknown()),
  metadata: z.looseObject({ nextCursor: z.string().nullish(), count: z.number().optional() }).optional(),
});

/** The registry's own status of an entry (active, deprecated, deleted), when it says. */
export function officialStatus(response: ServerResponse): string | undefined {
  const official = response._meta?.['io.modelcontextprotocol.registry/official'];
  const status = typeof official === 'object' && official !== null ? (official as { status?: unknown }).status : undefined;
  return typeof status === 'string' ? status : undefined;
}
