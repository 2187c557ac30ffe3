import { BUNDLE_UPLOAD_CHUNK_CHARS, type BundleReviewData, type HarborApi, type Result } from '../../../../preload/contract';

/** Raw bytes per upload frame: base64 of this many bytes fits one frame of the contract. */
const CHUNK_BYTES = Math.floor((BUNDLE_UPLOAD_CHUNK_CHARS / 4) * 3);

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * Sends a .mcpb the person picked or dropped to the Host in pieces (the page has no file paths in
 * browser mode, and one frame is capped); the Host reads and checks it and answers with its review.
 */
export async function uploadBundle(api: HarborApi, file: File, onProgress?: (sent: number, total: number) => void): Promise<Result<BundleReviewData>> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let uploadId: string | undefined;
  for (let offset = 0; ; offset += CHUNK_BYTES) {
    const last = offset + CHUNK_BYTES >= bytes.length;
    const result = await api.bundles.upload({ ...(uploadId ? { uploadId } : {}), fileName: file.name || 'bundle.mcpb', chunk: base64(bytes.subarray(offset, offset + CHUNK_BYTES)), last });
    if (!result.ok) return result;
    uploadId = result.value.uploadId;
    onProgress?.(Math.min(offset + CHUNK_BYTES, bytes.length), bytes.length);
    if (last) {
      return result.value.review ? { ok: true, value: result.value.review } : { ok: false, error: { code: 'INTERNAL', message: 'Harbor received the bundle but sent no review back.' } };
    }
  }
}
