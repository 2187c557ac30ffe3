import { editorServerNameProblem } from '../../../preload/contract';
import { canonical } from '../canonical-json';
import { HARBOR_FIELD_NAMES, isStdio, type RegistryFile, type ServerConfig } from '../registry/schema';

export interface ImportClash {
  readonly name: string;
  readonly existing: ServerConfig;
  readonly incoming: ServerConfig;
  /** Set when a rename was asked for: the name the incoming server was added under. */
  readonly renamedTo?: string;
  /** The person chose to leave it out. */
  readonly skipped?: boolean;
  /** The free name a rename without a name of its own would pick. */
  readonly suggestedName: string;
  /** Why the name chosen for it cannot be used; the clash stays unresolved. */
  readonly problem?: string;
}

/** One clash decided by the person: left out, or added under `name` (the next free "name-N" without one). */
export type ClashChoice = { readonly action: 'skip' } | { readonly action: 'rename'; readonly name?: string | undefined };

export interface ImportPlanOptions {
  /** Rename every clash the choices do not decide (`harbor import --rename`). */
  readonly rename?: boolean;
  /** Per incoming name (as the file spells it). */
  readonly choices?: Readonly<Record<string, ClashChoice>>;
}

export interface ImportPlan {
  /** Names written to the registry, in order (renamed clashes appear under their new name). */
  readonly added: string[];
  /** Registry names that already hold the same server: nothing to do for them. */
  readonly identical: string[];
  /** Every incoming server whose name is taken by a different server. */
  readonly clashes: ImportClash[];
  /** The registry after the import; equal to `current` when nothing is added. Unknown fields kept. */
  readonly next: RegistryFile;
}

/**
 * Merges imported servers into the registry without ever replacing one silently. A name that
 * exists with the same launch configuration is "identical" and skipped; with a different one it is
 * a clash: not written, unless the person's choice for it says skip or rename (to a name they
 * give, or `name-2` / the next free suffix), or `rename` renames every undecided one.
 * Importing the same file twice is a no-op, also after a renaming import: an earlier `name-N`
 * that holds the same server counts as identical.
 */
export function planImport(
  current: RegistryFile,
  imported: ReadonlyArray<{ readonly name: string; readonly config: ServerConfig }>,
  options: ImportPlanOptions = {},
): ImportPlan {
  // A Map, not an object: a server named "__proto__" must stay a server.
  const servers = new Map<string, ServerConfig>(Object.entries(current.mcpServers ?? {}));
  const added: string[] = [];
  const identical: string[] = [];
  const clashes: ImportClash[] = [];
  const pendingClashes: Array<{ name: string; config: ServerConfig }> = [];

  // Pass 1: new names and identical servers; their names are taken before any rename picks one.
  for (const { name, config } of imported) {
    const existing = servers.get(name);
    if (!existing) {
      servers.set(name, config);
      added.push(name);
    } else if (sameServer(existing, config)) {
      identical.push(name);
    } else {
      const earlier = findRenamedCopy(servers, name, config);
      if (earlier) identical.push(earlier);
      else pendingClashes.push({ name, config });
    }
  }

  // Pass 2: clashes. Reserve every incoming name so a rename never takes one of them.
  const reserved = new Set([...servers.keys(), ...imported.map((s) => s.name)]);
  // Names the person typed are taken first, so a generated "name-2" never lands on one of them.
  const chosen = new Set(pendingClashes.flatMap(({ name }) => {
    const choice = options.choices?.[name];
    return choice?.action === 'rename' && choice.name !== undefined ? [choice.name] : [];
  }));
  for (const { name, config } of pendingClashes) {
    const existing = servers.get(name)!;
    const suggestedName = freeName(name, new Set([...reserved, ...chosen]));
    const clash = { name, existing, incoming: config, suggestedName };
    const choice = Object.hasOwn(options.choices ?? {}, name) ? options.choices![name] : undefined;
    if (choice?.action === 'skip') {
      clashes.push({ ...clash, skipped: true });
      continue;
    }
    if (!choice && !options.rename) {
      clashes.push(clash);
      continue;
    }
    const target = choice?.action === 'rename' && choice.name !== undefined ? choice.name : suggestedName;
    const problem = target === suggestedName ? undefined : renameProblem(target, reserved);
    if (problem) {
      clashes.push({ ...clash, problem });
      continue;
    }
    reserved.add(target);
    servers.set(target, config);
    added.push(target);
    clashes.push({ ...clash, renamedTo: target });
  }

  const next = added.length ? { ...current, mcpServers: Object.fromEntries(servers) } : current;
  return { added, identical, clashes, next };
}

/** Why an incoming server cannot be added under `name`: not a name the editor makes, or already in use. */
function renameProblem(name: string, taken: ReadonlySet<string>): string | undefined {
  const problem = editorServerNameProblem(name);
  if (problem) return `"${name}" cannot be used: ${problem}.`;
  if (taken.has(name)) return `"${name}" is already taken: choose another name.`;
  return undefined;
}

function freeName(name: string, taken: ReadonlySet<string>): string {
  for (let n = 2; ; n++) if (!taken.has(`${name}-${n}`)) return `${name}-${n}`;
}

function findRenamedCopy(servers: ReadonlyMap<string, ServerConfig>, name: string, config: ServerConfig): string | undefined {
  for (const [key, existing] of servers) {
    if (key.startsWith(`${name}-`) && /^\d+$/.test(key.slice(name.length + 1)) && sameServer(existing, config)) return key;
  }
  return undefined;
}

/**
 * Two configs start the same server when what is launched or reached is the same. Harbor's own
 * switches (`enabled`, `trusted`, `timeoutMs`) are the person's choices in Harbor, so they do not
 * make an imported copy "different"; empty `args`/`env`/`headers` equal absent ones; an explicit
 * `type` equal to the implied one is ignored.
 */
export function sameServer(a: ServerConfig, b: ServerConfig): boolean {
  return canonical(launchShape(a)) === canonical(launchShape(b));
}

function launchShape(config: ServerConfig): Record<string, unknown> {
  const shape: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (HARBOR_FIELD_NAMES.has(key) || value === undefined || isEmpty(value)) continue;
    shape[key] = value;
  }
  if (isStdio(config)) {
    if (shape.type === 'stdio') delete shape.type;
  } else {
    const transport = config.transport ?? (config.type === 'sse' ? 'sse' : undefined);
    delete shape.type;
    delete shape.transport;
    if (transport === 'sse') shape.transport = 'sse';
  }
  return shape;
}

function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/** Under which name each incoming server ends up (renamed clashes get their new name). */
export function finalNames(plan: ImportPlan): (server: string) => string {
  const finalName = new Map(plan.clashes.flatMap((c) => (c.renamedTo ? [[c.name, c.renamedTo] as const] : [])));
  return (server) => finalName.get(server) ?? server;
}
