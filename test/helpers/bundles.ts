/**
 * Real .mcpb files for tests, made the way an author makes them: the fixture folder's server is
 * bundled with its dependencies into one file (rolldown, as scripts/bundle-example-server.mjs
 * does), then packed with the official `mcpb pack` (the CLI of @anthropic-ai/mcpb).
 */
import { execFile } from 'node:child_process';
import { builtinModules } from 'node:module';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { rolldown } from 'rolldown';
import { NODE, REPO } from './host';

const run = promisify(execFile);
export const BUNDLE_FIXTURES = join(REPO, 'test/fixtures/bundles');
export const MCPB_CLI = join(REPO, 'node_modules/@anthropic-ai/mcpb/dist/cli/cli.js');
const WORK_ROOT = join(REPO, 'test/output/bundle-work');
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/**
 * Packs test/fixtures/bundles/<fixture> into `<outDir>/<fixture>-<version>.mcpb`. `edit` changes
 * the copied manifest first (another version, another setting).
 */
export async function packBundle(fixture: string, outDir: string, edit?: (manifest: Record<string, unknown>) => void): Promise<string> {
  // Inside the repository, so the server's imports resolve from its node_modules (test/output is gitignored).
  mkdirSync(WORK_ROOT, { recursive: true });
  const work = mkdtempSync(join(WORK_ROOT, `${fixture}-`));
  cpSync(join(BUNDLE_FIXTURES, fixture), work, { recursive: true });
  const manifestPath = join(work, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  edit?.(manifest);
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  const entry = join(work, String((manifest.server as { entry_point: string }).entry_point));
  const bundled = `${entry}.bundled.mjs`;
  const bundle = await rolldown({ input: entry, platform: 'node', external: (id) => builtins.has(id), logLevel: 'warn' });
  try {
    await bundle.write({ file: bundled, format: 'esm', codeSplitting: false, sourcemap: false });
  } finally {
    await bundle.close();
  }
  renameSync(bundled, entry);
  const out = join(outDir, `${fixture}-${String(manifest.version)}.mcpb`);
  try {
    await run(NODE, [MCPB_CLI, 'pack', work, out], { cwd: REPO, timeout: 60_000 });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return out;
}
