import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { REPO } from './host';
import { startRegistry, type LocalRegistry } from './registry-server';

/**
 * The attack registry (test/fixtures/registry/attacks) served on 127.0.0.1 for one test file, and
 * the folders its tests make (push them on `roots`), removed after the file. Call at the top level.
 */
export function attackRegistry(): { readonly url: string; readonly roots: string[] } {
  let registry: LocalRegistry | undefined;
  const roots: string[] = [];
  beforeAll(async () => {
    registry = await startRegistry({ servers: join(REPO, 'test/fixtures/registry/attacks') });
  });
  afterAll(async () => {
    await registry?.stop();
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });
  return {
    get url() {
      if (!registry) throw new Error('the attack registry starts before the tests: read its url inside a test');
      return registry.url;
    },
    roots,
  };
}
