import type { McpbManifestAny } from '@anthropic-ai/mcpb';
import { HarborError } from '../errors';

export type BundleManifest = McpbManifestAny;
export type UserConfigOption = NonNullable<BundleManifest['user_config']>[string];

const refuse = (why: string) => new HarborError('BAD_REQUEST', `This bundle's manifest.json ${why}. Nothing was installed.`);

/**
 * manifest.json, checked against the manifest schema of the version it declares, with the
 * schemas `@anthropic-ai/mcpb` ships (the same ones `mcpb pack` and `mcpb validate` use). A
 * version Harbor's copy of the package does not know is refused by name.
 */
export async function parseManifest(text: string): Promise<BundleManifest> {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw refuse(`is not valid JSON (${(error as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw refuse('is not a JSON object');
  const record = data as Record<string, unknown>;
  const declared = record.manifest_version ?? record.dxt_version;
  const { VERSIONED_MANIFEST_SCHEMAS } = await import('@anthropic-ai/mcpb/schemas');
  const known = Object.keys(VERSIONED_MANIFEST_SCHEMAS);
  if (typeof declared !== 'string') throw refuse(`has no "manifest_version" (Harbor reads versions ${known.join(', ')})`);
  if (!Object.hasOwn(VERSIONED_MANIFEST_SCHEMAS, declared)) {
    throw refuse(`declares manifest_version "${declared}", which this Harbor cannot read (it reads ${known.join(', ')}): update Harbor, or ask the bundle's author for a bundle in a version it reads`);
  }
  const parsed = VERSIONED_MANIFEST_SCHEMAS[declared as keyof typeof VERSIONED_MANIFEST_SCHEMAS].safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 8).map((issue) => `${issue.path.join('.') || '(manifest)'}: ${issue.message}`);
    throw refuse(`does not match manifest version ${declared}: ${problems.join('; ')}`);
  }
  return parsed.data as BundleManifest;
}

/** The version as a folder name may carry it (semver and the like; never a path). */
export function checkVersion(version: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/.test(version)) throw refuse(`has the version "${version}", which is not a plain version number`);
  return version;
}
