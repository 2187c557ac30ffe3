import type { ServerConfig } from '../../registry/schema';
import type { InputDefinition } from './placeholder-filling';

export type ImportFormat = 'claude-desktop' | 'vscode' | 'cursor';

export const FORMAT_LABELS: Readonly<Record<ImportFormat, string>> = {
  'claude-desktop': 'Claude Desktop',
  vscode: 'VS Code',
  cursor: 'Cursor',
};

export interface ImportedServer {
  readonly name: string;
  /** Normalised to Harbor's shape and validated against the registry schema. */
  readonly config: ServerConfig;
}

export interface SkippedServer {
  readonly name: string;
  /** One line per problem, with the field's path inside the entry (`args[1]: expected string, got number`). */
  readonly problems: string[];
}

/** A note about an imported server: a field Harbor ignored, a value it converted. */
export interface ImportWarning {
  readonly server: string;
  readonly message: string;
}

/**
 * A literal value under a key that looks secret (`GITHUB_TOKEN`, `Authorization`). Only the
 * location is recorded, never the value: the keychain step (import/secret-moves.ts) moves these
 * values out of the file and replaces them with `${secret:…}` references.
 */
export interface SecretFinding {
  readonly server: string;
  readonly where: 'env' | 'headers';
  readonly key: string;
}

/** A VS Code `${input:id}` reference: filled at import when its value is known, else left as written. */
export interface InputReference {
  readonly id: string;
  readonly description?: string;
  readonly password?: boolean;
  /** False when the file's `inputs` has no entry with this id. */
  readonly defined: boolean;
  readonly servers: string[];
  /** Where the value came from when it was filled in: the input's `default`, or given at import. */
  readonly filled?: 'default' | 'given';
}

/** `${workspaceFolder}`, `${env:HOME}`, `${userHome}`…: kept as written; Harbor does not expand them. */
export interface UnresolvedVariable {
  readonly server: string;
  readonly variable: string;
  /** The field it appears in, e.g. `args[0]` or `env.API_KEY`. */
  readonly where: string;
}

export interface ImportResult {
  readonly format: ImportFormat;
  readonly source: string;
  readonly servers: ImportedServer[];
  readonly skipped: SkippedServer[];
  readonly warnings: ImportWarning[];
  readonly secretsDetected: SecretFinding[];
  readonly inputsReferenced: InputReference[];
  readonly unresolvedVariables: UnresolvedVariable[];
}

/** What one app's file holds before normalisation: raw entries by name, plus VS Code's inputs. */
export interface RawServers {
  readonly entries: ReadonlyArray<readonly [name: string, raw: unknown]>;
  readonly inputs?: readonly InputDefinition[];
}
