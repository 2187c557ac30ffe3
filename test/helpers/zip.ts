/** Hand-made zips for the bundle reader's refusals: what `mcpb pack` would never produce. */
import { strToU8, zipSync, type Zippable } from 'fflate';

export interface ZipItem {
  readonly name: string;
  readonly data: string | Uint8Array;
  /** Unix mode with its type bits, e.g. 0o120777 for a symbolic link. */
  readonly mode?: number;
}

/** `store`: no compression, so a test can change a byte of an entry's data in place. */
export function makeZip(items: readonly ZipItem[], options: { store?: boolean } = {}): Buffer {
  const files: Zippable = {};
  for (const item of items) {
    const data = typeof item.data === 'string' ? strToU8(item.data) : item.data;
    files[item.name] = item.mode === undefined ? data : [data, { os: 3, attrs: item.mode << 16 }];
  }
  return Buffer.from(zipSync(files, options.store ? { level: 0 } : {}));
}

/** A minimal valid manifest (version 0.3) running `server/index.mjs` with node. */
export function minimalManifest(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    manifest_version: '0.3',
    name: 'tiny',
    version: '1.0.0',
    description: 'tiny',
    author: { name: 'Tests' },
    server: { type: 'node', entry_point: 'server/index.mjs', mcp_config: { command: 'node', args: ['${__dirname}/server/index.mjs'] } },
    ...overrides,
  });
}
