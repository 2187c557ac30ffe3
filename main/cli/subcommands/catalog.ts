import { isVisibleToModel, toolUiResourceUri } from '../../host/apps/ui-meta';
import type { Catalog } from '../../host/servers/catalog';
import { loadTokenCounter, toolTokens } from '../../host/tools/tokens';
import type { CliCommandCode, CliContext } from '../command';
import type { ErrorCode } from '../../../preload/contract';
import { HarborError } from '../../host/errors';
import { UsageError, exitCodeForFailures } from '../output';
import { parseIntOption } from '../json-option';
import { DEFAULT_TOOL_SEARCH_LIMIT } from '../../host/tools/search';

type Kind = 'tools' | 'resources' | 'prompts';
type Row = Record<string, unknown>;

interface Collected {
  /** The servers asked, in registry order. */
  readonly names: readonly string[];
  /** Every item of those servers, each with its `server` (and, for tools, its `tokens`). */
  readonly rows: Row[];
  readonly failures: ReadonlyMap<string, ErrorCode>;
}

/** Lists one catalog kind of one server, or (tools) of every enabled server. */
async function listKind(ctx: CliContext, kind: Kind): Promise<number> {
  const { names, rows, failures } = await collect(ctx, kind);
  ctx.out.result(rows, rows.map((r) => human(r, kind)).join('\n') || `(no ${kind})`);
  return exitCode(names, failures);
}

/**
 * `tools --search QUERY`: the tools of every enabled server (or of SERVER) ranked by the Host's
 * tool search, the same ranking as the chat's search_tools. Best first, each the same object as
 * `tools` lists; an empty list when nothing matches.
 */
async function searchTools(ctx: CliContext, query: string): Promise<number> {
  const limit = parseIntOption('limit', ctx.options.limit, { min: 1, max: 1000 }) ?? DEFAULT_TOOL_SEARCH_LIMIT;
  const { names, rows, failures } = await collect(ctx, 'tools');
  const host = await ctx.host();
  const byKey = new Map(rows.map((r) => [`${String(r.server)}\u0000${String(r.name)}`, r]));
  const found = host.tools
    .rank(query, { limit, accept: (server, tool) => byKey.has(`${server}\u0000${tool}`) })
    .map((m) => byKey.get(`${m.server}\u0000${m.tool}`)!);
  ctx.out.result(found, found.map((r) => human(r, 'tools')).join('\n') || `(no tools match "${query}")`);
  return exitCode(names, failures);
}

/** Connects the servers asked for and reads their catalogs; a failing server is reported and left out. */
async function collect(ctx: CliContext, kind: Kind): Promise<Collected> {
  const host = await ctx.host({ catalog: kind === 'resources' ? ['resources', 'resourceTemplates'] : [kind] });
  host.registry.requireValid();
  const names = ctx.args[0] !== undefined ? [ctx.args[0]] : host.servers.list().filter((s) => s.enabled).map((s) => s.name);
  const rows: Row[] = [];
  const failures = new Map<string, ErrorCode>();
  // `tokens` (--json): what the tool's definition costs in the model's context (o200k_base). Its
  // tables take the better part of a second and tens of MB to load: loaded while the servers
  // start, only if any, and only for --json (the person's listing shows no counts).
  const counting = kind === 'tools' && names.length > 0 && ctx.globals.json ? loadTokenCounter() : undefined;
  counting?.catch(() => undefined); // awaited (and thrown) below, per server; unheard if every server fails first
  await Promise.all(
    names.map(async (server) => {
      try {
        const catalog = await host.calls.catalog(server);
        const count = await counting;
        // A tool changed since the person approved it is marked, with the fields that changed.
        const changes = kind === 'tools' ? new Map((await host.calls.toolChanges(server)).map((c) => [c.tool, c.changed])) : undefined;
        for (const item of pick(catalog, kind)) {
          const changed = changes?.get((item as { name: string }).name);
          rows.push({
            ...item,
            server,
            ...(count ? { tokens: toolTokens(count, item as { name: string }) } : {}),
            ...(changed ? { changedSinceApproval: true, changedFields: [...changed] } : {}),
          });
        }
      } catch (error) {
        if (ctx.args[0] !== undefined) throw error;
        failures.set(server, error instanceof HarborError ? error.code : 'INTERNAL');
        ctx.out.error(`${server}: ${(error as Error).message}`);
      }
    }),
  );
  rows.sort((a, b) => names.indexOf(String(a.server)) - names.indexOf(String(b.server)));
  return { names, rows, failures };
}

/** In registry order, as `servers` does: the first failing server decides (waiting launches last). */
function exitCode(names: readonly string[], failures: ReadonlyMap<string, ErrorCode>): number {
  return exitCodeForFailures(names.flatMap((name) => (failures.has(name) ? [failures.get(name)!] : [])));
}

function pick(catalog: Catalog, kind: Kind): readonly object[] {
  if (kind === 'resources') return [...catalog.resources, ...catalog.resourceTemplates];
  return catalog[kind];
}

const DESCRIPTION_WIDTH = 100;

/** A description's first line, at most DESCRIPTION_WIDTH characters; cut text ends with "…". */
function shortDescription(description: string): string {
  const lines = description.trim().split('\n');
  const first = [...lines[0]!.trim()];
  if (first.length > DESCRIPTION_WIDTH) return `${first.slice(0, DESCRIPTION_WIDTH - 1).join('').trimEnd()}…`;
  return lines.length > 1 ? `${first.join('')} …` : first.join('');
}

/** An MCP App's tool names its UI; one only its App may call is never offered to the model. */
function appMark(row: Row): string {
  const uri = toolUiResourceUri(row);
  const mark = uri ? `  [app: ${uri}]` : '';
  return isVisibleToModel(row) ? mark : `${mark}  [for the app only: the model is not offered it]`;
}

function human(row: Row, kind: Kind): string {
  const desc = typeof row.description === 'string' && row.description.trim() ? `  ${shortDescription(row.description)}` : '';
  if (kind === 'resources') return `${String(row.server)}  ${String(row.uri ?? row.uriTemplate)}  ${String(row.name ?? '')}${desc}`;
  const changed = Array.isArray(row.changedFields) ? `  [changed since you approved it: ${row.changedFields.join(', ')}]` : '';
  const app = kind === 'tools' ? appMark(row) : '';
  return `${String(row.server)}  ${String(row.name)}${changed}${app}${desc}`;
}

export const toolsCommand: CliCommandCode = {
  run: (ctx) => {
    const query = ctx.options.search;
    if (query === undefined) {
      if (ctx.options.limit !== undefined) throw new UsageError('--limit goes with --search: harbor tools --search "QUERY" --limit N');
      return listKind(ctx, 'tools');
    }
    return searchTools(ctx, String(query));
  },
};

export const resourcesCommand: CliCommandCode = {
  run: (ctx) => listKind(ctx, 'resources'),
};

export const promptsCommand: CliCommandCode = {
  run: (ctx) => listKind(ctx, 'prompts'),
};
