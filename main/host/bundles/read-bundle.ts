import { HarborError } from '../errors';
import { listArchive, readArchiveFile, type ArchiveEntry } from './archive';
import { BUNDLE_LIMITS, MIB } from './limits';
import { checkVersion, parseManifest, type BundleManifest } from './manifest';
import { splitSignature, verifySignature, type SignatureView } from './signature';

/** A bundle read and checked from its bytes: nothing written but a scratch file for the signature check. */
export interface ReadBundle {
  readonly manifest: BundleManifest;
  readonly manifestVersion: string;
  /** The zip itself (a signature block removed). */
  readonly zip: Buffer;
  readonly entries: readonly ArchiveEntry[];
  readonly signature: SignatureView;
}

/**
 * Reads a .mcpb: size-capped, the signature block split off, every zip entry checked (see
 * archive.ts), manifest.json validated against its declared version, the signature verified.
 * Anything wrong is BAD_REQUEST (CLI exit 2) naming the problem.
 */
export async function readBundle(bytes: Buffer, scratchDir: string): Promise<ReadBundle> {
  if (bytes.length > BUNDLE_LIMITS.fileBytes) {
    throw new HarborError('BAD_REQUEST', `This bundle is ${Math.ceil(bytes.length / MIB)} MiB; Harbor installs bundles up to ${BUNDLE_LIMITS.fileBytes / MIB} MiB. Nothing was installed.`);
  }
  const { zip } = await splitSignature(bytes);
  const entries = await listArchive(zip);
  const text = await readArchiveFile(zip, 'manifest.json', BUNDLE_LIMITS.manifestBytes);
  if (!text) throw new HarborError('BAD_REQUEST', 'This is not a usable bundle: it has no manifest.json at its top level. Nothing was installed.');
  const manifest = await parseManifest(text.toString('utf8'));
  checkVersion(manifest.version);
  const signature = await verifySignature(bytes, scratchDir);
  return { manifest, manifestVersion: manifest.manifest_version ?? manifest.dxt_version ?? '', zip, entries, signature };
}
