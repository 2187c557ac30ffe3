/** The registry as the app edits it, and importing other apps' configs into it. */
import { z } from 'zod';

/** A server's configuration as the person wrote it: secret values are never here, only ${secret:…} refs. */
export const ServerConfigData = z.record(z.string(), z.unknown());

export const RegistryProblem = z.object({
  /** JSON path, e.g. mcpServers.github.args[1] */
  path: z.string(),
  message: z.string(),
  /** 1-based line in the raw text, when known. */
  line: z.number().int().optional(),
  /** 1-based column in the raw text, when known. */
  column: z.number().int().optional(),
});

/**
 * harbor.json was changed by hand while Harbor runs, and read again: `ok` with what started,
 * restarted and stopped; or not (`problems`, each where it is), and the last good registry keeps running.
 */
export const RegistryChanged = z.object({
  ok: z.boolean(),
  problems: z.array(RegistryProblem),
  started: z.array(z.string()),
  restarted: z.array(z.string()),
  stopped: z.array(z.string()),
});
export type RegistryProblem = z.infer<typeof RegistryProblem>;

export const RegistryView = z.object({
  path: z.string(),
  /** SHA-256 of `text` as read from the file: `registry.save` sends it back, and a file changed since is refused. */
  hash: z.string().optional(),
  text: z.string(),
  servers: z.array(z.object({ name: z.string(), config: ServerConfigData })),
  problems: z.array(RegistryProblem),
});
export type RegistryView = z.infer<typeof RegistryView>;

/** A config file of another app that Harbor can import from, and whether it exists on this machine. */
export const ImportSourceData = z.object({
  format: z.enum(['claude-desktop', 'vscode', 'cursor']),
  label: z.string(),
  path: z.string(),
  exists: z.boolean(),
});
export type ImportSourceData = z.infer<typeof ImportSourceData>;

/**
 * What to do with one incoming server whose name is taken by a different server here: leave it
 * out, or add it under another name (`name`, or the next free "name-2" when none is given).
 */
export const ImportChoice = z.discriminatedUnion('action', [
  z.object({ action: z.literal('skip') }).strict(),
  z.object({ action: z.literal('rename'), name: z.string().min(1).max(100).optional() }).strict(),
]);
export type ImportChoice = z.infer<typeof ImportChoice>;

/**
 * Importing a file (preview or apply): `inputs` are values for its VS Code inputs, by id (a
 * password one goes to the keychain). `choices`, by the name in the file, decide each clash;
 * `rename` renames every clash without a choice.
 */
export const ImportRequest = z
  .object({
    /** The file to import; or `text`, a snippet pasted into the add-server form (one of the two). */
    path: z.string().min(1).max(4096).optional(),
    text: z.string().min(1).max(1024 * 1024).optional(),
    rename: z.boolean().optional(),
    inputs: z.record(z.string().min(1).max(200), z.string().max(64 * 1024)).optional(),
    choices: z.record(z.string().min(1).max(200), ImportChoice).optional(),
    /** Variables that make a runtime load or fetch code (NODE_OPTIONS, LD_PRELOAD…) the person allowed, each by name. */
    allowEnv: z.array(z.string().min(1).max(200)).max(100).optional(),
    /** The person confirmed names and hosts in mixed scripts (look-alikes). */
    allowLookalike: z.boolean().optional(),
  })
  .strict()
  .refine((r) => (r.path === undefined) !== (r.text === undefined), { message: 'give either "path" or "text"' });
export type ImportRequest = z.infer<typeof ImportRequest>;

/** What an import does (or, previewed, would do): names and places only, never a secret value. */
export const ImportReportData = z.object({
  format: z.enum(['claude-desktop', 'vscode', 'cursor']),
  label: z.string(),
  source: z.string(),
  configPath: z.string(),
  dryRun: z.boolean(),
  written: z.boolean(),
  /** A name clash nobody decided (or decided with an unusable name): nothing can be written. */
  blocked: z.boolean(),
  added: z.array(z.string()),
  identical: z.array(z.string()),
  clashes: z.array(
    z.object({
      name: z.string(),
      renamedTo: z.string().optional(),
      /** Left out, as the person chose. */
      skipped: z.boolean().optional(),
      /** The free name a rename without a name of its own would use. */
      suggestedName: z.string().optional(),
      /** Why the name chosen for it cannot be used (taken, or not a usable name). */
      problem: z.string().optional(),
      /** What the server of that name here runs, and what the file's runs (command line or URL). */
      existingTarget: z.string().optional(),
      incomingTarget: z.string().optional(),
    }),
  ),
  skipped: z.array(z.object({ name: z.string(), problems: z.array(z.string()) })),
  /** Each added server: what it runs (command line or URL, secrets as ${secret:…} references). */
  servers: z.array(z.object({ name: z.string(), transport: z.enum(['stdio', 'http']), target: z.string(), enabled: z.boolean() })),
  secretsMoved: z.array(z.object({ server: z.string(), where: z.enum(['env', 'headers']), key: z.string(), secret: z.string() })),
  secretsNotMoved: z.array(z.object({ server: z.string(), where: z.enum(['env', 'headers']), key: z.string() })),
  /**
   * Every `${secret:…}` reference of the imported servers. createdByFile false: the file names a
   * keychain secret it did not bring; Harbor sends it to that server only once the person grants it.
   */
  secretReferences: z.array(z.object({ server: z.string(), where: z.string(), secret: z.string(), createdByFile: z.boolean() })),
  inputsReferenced: z.array(
    z.object({
      id: z.string(),
      description: z.string().optional(),
      password: z.boolean().optional(),
      defined: z.boolean(),
      servers: z.array(z.string()),
      /** Filled in at import: from the input's default, or a value the person gave. Unfilled inputs keep the servers using them from starting. */
      filled: z.enum(['default', 'given']).optional(),
    }),
  ),
  unresolvedVariables: z.array(z.object({ server: z.string(), variable: z.string(), where: z.string() })),
  warnings: z.array(z.object({ server: z.string(), message: z.string() })),
  /** A preview made without the OS keychain: why it is unavailable (the import itself will need it). */
  keychainUnavailable: z.string().optional(),
  /**
   * Variables of added servers that make a runtime load or fetch code (NODE_OPTIONS, LD_PRELOAD…),
   * with their values: nothing is written until the person allows each (`allowed`).
   */
  codeLoadingEnv: z.array(z.object({ server: z.string(), name: z.string(), value: z.string(), allowed: z.boolean() })).optional(),
  /** Added servers whose name or host mixes scripts: nothing is written unless the person confirms (`allowLookalike`). */
  lookalike: z.array(z.object({ server: z.string(), problem: z.string() })).optional(),
});
export type ImportReportData = z.infer<typeof ImportReportData>;
