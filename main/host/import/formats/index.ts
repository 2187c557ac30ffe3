import { HarborError } from '../../errors';
import { serverNameProblem } from '../../registry/schema';
import { jsonHint } from '../../registry/store';
import { readClaudeDesktop } from './claude';
import { readCursor } from './cursor';
import { detectFormat } from './detect';
import { normaliseEntry } from './entry';
import { stripJsonComments } from './jsonc';
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

/**
 * Reads another app's MCP configuration and returns its servers in Harbor's shape, each validated
 * against the registry schema. Bad entries are skipped with their problems, never half-imported.
 * Nothing is resolved or prompted for: `${input:…}`, `${env:…}` and literal secrets are reported
 * so the person (and later the keychain step) can act on them. Throws CONFIG_INVALID when the file
 * is not JSON or not a format Harbor knows.
 */
export function importServers(text: string, sourcePath: string, format?: ImportFormat): ImportResult {
  let json: unknown;
  try {
    json = JSON.parse(stripJsonComments(text));
  } catch (error) {
    const message = (error as Error).message;
    throw new HarborError(
      'CONFIG_INVALID',
      `${sourcePath} is not valid JSON: ${message}.${jsonHint(message)} Nothing was imported.`,
      message,
    );
  }
  const detected = format ?? detectFormat(json, sourcePath);
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
    const { config } = normalised;
    result.servers.push({ name, config });
    for (const message of normalised.warnings) result.warnings.push({ server: name, message });
    for (const secret of findLiteralSecrets(config)) result.secretsDetected.push({ server: name, ...secret });
    for (const use of findVariables(config)) {
      if (use.kind === 'secret') continue; // Harbor's own keychain reference: resolved at start
      if (use.kind === 'input') {
        const known = raw.inputs?.find((input) => input.id === use.name);
        const ref = inputs.get(use.name) ?? {
          id: use.name,
          ...(known?.description !== undefined ? { description: known.description } : {}),
          ...(known?.password !== undefined ? { password: known.password } : {}),
          defined: known !== undefined,
          servers: [],
        };
        if (!ref.servers.includes(name)) ref.servers.push(name);
        inputs.set(use.name, ref);
      } else {
        result.unresolvedVariables.push({ server: name, variable: use.variable, where: use.where });
      }
    }
  }
  result.inputsReferenced.push(...inputs.values());
  return result;
}
