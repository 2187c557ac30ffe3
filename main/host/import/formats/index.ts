import { homedir } from 'node:os';
import { basename, dirname, sep } from 'node:path';
import { HarborError } from '../../errors';
import { serverNameProblem } from '../../registry/schema';
import { parseJsonc } from '../../registry/jsonc';
import { jsonHint } from '../../registry/store';
import { readClaudeDesktop } from './claude';
import { readCursor } from './cursor';
import { detectFormat } from './detect';
import { normaliseEntry } from './entry';
import { fillPlaceholders } from './placeholder-filling';
import { findLiteralSecrets, findVariables } from './scan';
import { readVsCode } from './vscode';
import type { ImportFormat, ImportResult, InputReference, RawServers } from './types';

export { detectFormat } from './detect';
export { defaultImportSources, type ImportSource } from './sources';
export * from './types';

const READERS: Readonly<Record<ImportFormat, (json: unknown, source: string) => RawServers>> = {
  'claude-desktop': readClaudeDesktop,
  vscode: readVsCode,
  cursor: readCursor,
};

export interface ImportServersOptions {
  readonly format?: ImportFormat;
  /** Values for VS Code inputs, by id (`harbor import --set ID=VALUE`, the app's form). */
  readonly inputs?: Readonly<Record<string, string>>;
  /** The home folder `${userHome}` stands for. Default: this user's. */
  readonly home?: string;
}

/**
 * Reads another app's MCP configuration and returns its servers in Harbor's shape, each validated
 * against the registry schema. Bad entries are skipped with their problems, never half-imported.
 * Placeholders are filled where their value is known (an input's value given or its default, the
 * home folder, the workspace of a `.vscode/mcp.json`); the rest — and literal secrets — are
 * reported so the person (and the keychain step) can act on them. Throws CONFIG_INVALID when the
 * file is not JSON or not a format Harbor knows, BAD_REQUEST for a value given for an input the
 * file does not have.
 */
export function importServers(text: string, sourcePath: string, options: ImportServersOptions = {}): ImportResult {
  // VS Code's and Cursor's mcp.json are JSON with comments (and trailing commas).
  const read = parseJsonc(text);
  if (!read.ok) {
    const message = read.problem.message;
    throw new HarborError(
      'CONFIG_INVALID',
      `${sourcePath} is not valid JSON: ${message}.${jsonHint(message)} Nothing was imported.`,
      message,
    );
  }
  const json = read.value;
  const detected = options.format ?? detectFormat(json, sourcePath);
  if (!detected) {
    throw new HarborError(
      'CONFIG_INVALID',
      `${sourcePath} is not a Claude Desktop, Cursor or VS Code MCP configuration: expected an object with "mcpServers" or "servers". Nothing was imported.`,
    );
  }
  const raw = READERS[detected](json, sourcePath);

  const result: ImportResult = {
    format: detected,
    source: sourcePath,
    servers: [],
    skipped: [],
    warnings: [],
    secretsDetected: [],
    inputsReferenced: [],
    unresolvedVariables: [],
  };
  const inputs = new Map<string, InputReference & { servers: string[] }>();
  const answers = options.inputs ?? {};
  const fillContext = { inputs: raw.inputs ?? [], answers, variables: knownVariables(sourcePath, options.home ?? homedir()) };
  for (const [name, entry] of raw.entries) {
    const nameProblem = serverNameProblem(name);
    if (nameProblem) {
      result.skipped.push({ name, problems: [nameProblem] });
      continue;
    }
    const normalised = normaliseEntry(entry);
    if (!normalised.ok) {
      result.skipped.push({ name, problems: normalised.problems });
      continue;
    }
    const filling = fillPlaceholders(normalised.config, fillContext);
    const { config } = filling;
    result.servers.push({ name, config });
    for (const message of [...normalised.warnings, ...filling.warnings]) result.warnings.push({ server: name, message });
    const literals = findLiteralSecrets(config);
    // A password input's value now stands in the entry: it moves to the keychain like a literal token.
    for (const secret of [...literals, ...filling.secrets.filter((s) => !literals.some((l) => l.where === s.where && l.key === s.key))]) {
      result.secretsDetected.push({ server: name, ...secret });
    }
    for (const use of findVariables(normalised.config)) {
      if (use.kind === 'secret') continue; // Harbor's own keychain reference: resolved at start
      if (use.kind !== 'input') continue;
      const known = raw.inputs?.find((input) => input.id === use.name);
      const ref = inputs.get(use.name) ?? {
        id: use.name,
        ...(known?.description !== undefined ? { description: known.description } : {}),
        ...(known?.password !== undefined ? { password: known.password } : {}),
        defined: known !== undefined,
        servers: [],
        ...(filling.filled.has(use.name) ? { filled: filling.filled.get(use.name) } : {}),
      };
      if (!ref.servers.includes(name)) ref.servers.push(name);
      inputs.set(use.name, ref);
    }
    for (const use of findVariables(config)) {
      if (use.kind !== 'secret' && use.kind !== 'input') result.unresolvedVariables.push({ server: name, variable: use.variable, where: use.where });
    }
  }
  result.inputsReferenced.push(...inputs.values());
  const unknown = Object.keys(answers).filter((id) => !inputs.has(id));
  if (unknown.length > 0) {
    const known = [...inputs.keys()];
    throw new HarborError(
      'BAD_REQUEST',
      `${sourcePath} uses no input named ${unknown.map((id) => `"${id}"`).join(', ')}: nothing was imported. ${known.length ? `Its inputs: ${known.join(', ')}.` : 'It uses no inputs.'}`,
    );
  }
  return result;
}

/**
 * The apps' predefined variables whose value is known at import: the home folder and the path
 * separator always; the workspace folder when the file is a workspace's own (`.vscode/mcp.json`,
 * `.cursor/mcp.json`: the workspace is the folder holding it).
 */
function knownVariables(sourcePath: string, home: string): Record<string, string> {
  const variables: Record<string, string> = { userHome: home, pathSeparator: sep, '/': sep };
  const folder = dirname(sourcePath);
  // ~/.cursor/mcp.json is the person's global file: it belongs to no workspace.
  if ((basename(folder) === '.vscode' || basename(folder) === '.cursor') && dirname(folder) !== home) {
    const workspace = dirname(folder);
    Object.assign(variables, { workspaceFolder: workspace, workspaceRoot: workspace, workspaceFolderBasename: basename(workspace) });
  }
  return variables;
}
