import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Workspace {
  readonly root: string;
  /** The registry file, in config/. */
  readonly config: string;
  /** Harbor's data folder. */
  readonly data: string;
  /** `--config … --data-dir …` for the CLI. */
  readonly flags: string[];
  registry(): { mcpServers: Record<string, Record<string, unknown>> } & Record<string, unknown>;
}

/** A temp folder for CLI runs: the registry file (as given) in config/, Harbor's data in data/. The caller removes `root`. */
export function workspace(file: Record<string, unknown> = { mcpServers: {} }, prefix = 'harbor-ws-'): Workspace {
  const root = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(root, 'config'));
  const config = join(root, 'config', 'harbor.json');
  const data = join(root, 'data');
  writeFileSync(config, JSON.stringify(file, null, 2));
  return { root, config, data, flags: ['--config', config, '--data-dir', data], registry: () => JSON.parse(readFileSync(config, 'utf8')) as ReturnType<Workspace['registry']> };
}

/** Every file below `dir` (none when it does not exist). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));
}
