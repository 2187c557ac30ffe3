/** How large a bundle may be: a bundle is a server's code, not a data set, and a zip bomb must stop early. */
export const BUNDLE_LIMITS = {
  /** The .mcpb file itself (also the cap on an upload from the app). */
  fileBytes: 128 * 1024 * 1024,
  /** Everything it unpacks to. */
  unpackedBytes: 512 * 1024 * 1024,
  /** Files and folders in it. */
  entries: 20_000,
  /** manifest.json. */
  manifestBytes: 1024 * 1024,
} as const;

export const MIB = 1024 * 1024;
