import { installedDirProblem } from './installed-dir';
import { configEntryProblems } from './placeholders';
import type { ServerConfig } from './schema';

/**
 * Why this server cannot be started as written, one line per problem with its field, or none.
 * The file itself is valid: the other servers keep working; this one waits for the person's fix.
 * What the entry says (placeholders.ts), then what the disk says of a bundle's folder: one that is
 * not the folder it names would let the sandbox hand the server another bundle's (installed-dir.ts).
 */
export function serverEntryProblems(config: ServerConfig): string[] {
  const problems = configEntryProblems(config);
  const dirProblem = config.installed?.from === 'bundle' ? installedDirProblem(config.installed.dir) : undefined;
  return dirProblem ? [...problems, dirProblem] : problems;
}
