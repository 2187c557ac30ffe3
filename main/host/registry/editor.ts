import { editorServerNameProblem, type RegistryProblem } from '../../../preload/contract';
import type { z } from 'zod';
import { HarborError } from '../errors';
import { parseJsonc } from './jsonc';
import { positionOfPath } from './locate';
import { rootsProblems } from './roots';
import { formatIssues } from './store';
import { parseRegistryFile, ServerConfig, type RegistryFile } from './schema';

function checkName(name: string): void {
  const problem = editorServerNameProblem(name);
  if (problem) throw new HarborError('BAD_REQUEST', `${JSON.stringify(name)} is not a usable server name: ${problem}.`);
}

/** Validates one server's configuration, with every problem and its path. */
function checkConfig(name: string, config: unknown): void {
  const parsed = ServerConfig.safeParse(config);
  if (!parsed.success) {
    const lines = formatIssues(parsed.error.issues.map((i) => ({ ...i, path: ['mcpServers', name, ...i.path] })));
    throw new HarborError('CONFIG_INVALID', `The configuration of "${name}" has problems:\n${lines.map((l) => `  ${l}`).join('\n')}`, lines.join('\n'));
  }
  // A root typed into the editor must be a folder now (one that disappears later is only reported).
  const roots = rootsProblems(parsed.data.roots).map((problem) => `mcpServers.${name}.${problem}`);
  if (roots.length > 0) {
    throw new HarborError('CONFIG_INVALID', `The configuration of "${name}" has problems:\n${roots.map((l) => `  ${l}`).join('\n')}`, roots.join('\n'));
  }
}

/** The registry with one server added; a name already taken is refused (never overwritten). */
export function withServerAdded(file: RegistryFile, name: string, config: Record<string, unknown>): RegistryFile {
  checkName(name);
  checkConfig(name, config);
  if (file.mcpServers && Object.hasOwn(file.mcpServers, name)) {
    throw new HarborError('SERVER_EXISTS', `A server named "${name}" already exists. Pick another name, or edit that server.`);
  }
  return { ...file, mcpServers: { ...(file.mcpServers ?? {}), [name]: config as ServerConfig } };
}

/** The registry with one server replaced (and optionally renamed), keeping its place in the file. */
export function withServerUpdated(file: RegistryFile, name: string, config: Record<string, unknown>, newName = name): RegistryFile {
  const servers = file.mcpServers ?? {};
  if (!Object.hasOwn(servers, name)) throw new HarborError('SERVER_NOT_FOUND', `No server named "${name}".`);
  checkName(newName);
  checkConfig(newName, config);
  if (newName !== name && Object.hasOwn(servers, newName)) {
    throw new HarborError('SERVER_EXISTS', `A server named "${newName}" already exists.`);
  }
  const entries = Object.entries(servers).map(([key, value]) => (key === name ? [newName, config] : [key, value]));
  return { ...file, mcpServers: Object.fromEntries(entries) as Record<string, ServerConfig> };
}

export function withServerRemoved(file: RegistryFile, name: string): RegistryFile {
  const servers = { ...(file.mcpServers ?? {}) };
  if (!Object.hasOwn(servers, name)) throw new HarborError('SERVER_NOT_FOUND', `No server named "${name}".`);
  delete servers[name];
  return { ...file, mcpServers: servers };
}

/**
 * Checks raw registry text as the person typed it: a JSON syntax error or every schema problem,
 * each with its path and the line it is on, so the editor can mark the right place.
 */
export function checkRegistryText(text: string): { file?: RegistryFile; problems: RegistryProblem[] } {
  // As the loader reads it: comments and trailing commas allowed, a byte-order mark no error.
  const read = parseJsonc(text);
  if (!read.ok) return { problems: [{ path: '(file)', message: `not valid JSON: ${read.problem.message}`, line: read.problem.line, column: read.problem.column }] };
  // The loader's parse, with its plain-language messages.
  const parsed = parseRegistryFile(read.value);
  // A mistake in "model" alone is reported but leaves the file usable (only chat and sampling wait for it).
  if (parsed.success) return { file: parsed.data, problems: issueProblems(text, parsed.modelIssues) };
  return { problems: issueProblems(text, parsed.error.issues) };
}

function issueProblems(text: string, issues: readonly z.core.$ZodIssue[]): RegistryProblem[] {
  return issues.map((issue) => {
    const [formatted] = formatIssues([issue]);
    const sep = formatted!.indexOf(': ');
    const where = positionOfPath(text, issue.path);
    return { path: formatted!.slice(0, sep), message: formatted!.slice(sep + 2), ...(where ? { line: where.line, column: where.column } : {}) };
  });
}

/** A server's config with one tool turned on or off (`disabledTools`, sorted; removed when empty). */
export function withToolEnabled(config: ServerConfig, tool: string, enabled: boolean): ServerConfig {
  const disabled = new Set(config.disabledTools ?? []);
  if (enabled) disabled.delete(tool);
  else disabled.add(tool);
  const next: Record<string, unknown> = { ...config };
  if (disabled.size > 0) next.disabledTools = [...disabled].sort();
  else delete next.disabledTools;
  return next as ServerConfig;
}
