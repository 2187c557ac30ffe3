import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '../private-files';

/** A bundle's signature as the review shows it. */
export interface SignatureView {
  /**
   * signed / self-signed: the signature covers the bundle and its certificate chains to one this
   * computer trusts (self-signed: the certificate signed itself). unsigned: no signature.
   * unverified: a signature is there, but it does not check out (the content changed after
   * signing, or the certificate is not trusted here).
   */
  readonly status: 'signed' | 'self-signed' | 'unsigned' | 'unverified';
  readonly publisher?: string;
  readonly issuer?: string;
  readonly validTo?: string;
  readonly fingerprint?: string;
}

/** The zip without a signature block (what was signed), and whether there was one. */
export async function splitSignature(bytes: Buffer): Promise<{ zip: Buffer; signed: boolean }> {
  const { extractSignatureBlock } = await import('@anthropic-ai/mcpb/node');
  const { originalContent, pkcs7Signature } = extractSignatureBlock(bytes);
  return { zip: originalContent, signed: pkcs7Signature !== undefined };
}

/**
 * Checks a signed bundle with `@anthropic-ai/mcpb`'s verifier (PKCS#7 over the zip, the chain
 * against the OS trust store). The verifier reads a file, so the bytes go to a private scratch
 * file under `scratchDir` for the check and are removed after.
 */
export async function verifySignature(bytes: Buffer, scratchDir: string): Promise<SignatureView> {
  const { verifyMcpbFile, extractSignatureBlock } = await import('@anthropic-ai/mcpb/node');
  if (!extractSignatureBlock(bytes).pkcs7Signature) return { status: 'unsigned' };
  makePrivateFolder(scratchDir);
  const file = join(scratchDir, `verify-${randomBytes(8).toString('hex')}.mcpb`);
  try {
    await writeFile(file, bytes, { mode: PRIVATE_FILE_MODE });
    // A signature block that cannot be read grants nothing: it is shown as unverified, never as signed.
    const info = await verifyMcpbFile(file).catch(() => ({ status: 'unsigned' as const }));
    if (info.status === 'unsigned') return { status: 'unverified' };
    return {
      status: info.status,
      ...('publisher' in info && info.publisher ? { publisher: info.publisher } : {}),
      ...('issuer' in info && info.issuer ? { issuer: info.issuer } : {}),
      ...('valid_to' in info && info.valid_to ? { validTo: info.valid_to } : {}),
      ...('fingerprint' in info && info.fingerprint ? { fingerprint: info.fingerprint } : {}),
    };
  } finally {
    await rm(file, { force: true });
  }
}
