import { isVisibleToModel, toolUiResourceUri } from '../../host/apps/ui-meta';
import type { Catalog } from '../../host/servers/catalog';
import type { CliCommandCode, CliContext } from '../command';
import type { ErrorCode } from '../../../preload/contract';
import { HarborError } from '../../host/errors';
import { UsageError, exitCodeForFailures } from '../output';
import { parseIntOption } from '../json-option';
import { DEFAULT_TOOL_SEARCH_LIMIT } from '../../host/tools/search';
import { collectTools, type Collected, type Row } from './tool-rows';

type Kind = 'tools' | 'resources' | 'prompts';

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
  if (kind === 'tools') return collectTools(ctx);
  const host = await ctx.host({ catalog: kind === 'resources' ? ['resources', 'resourceTemplates'] : [kind], readOnly: true });
  host.registry.requireValid();
  const names = ctx.args[0] !== undefined ? [ctx.args[0]] : host.servers.list().filter((s) => s.enabled).map((s) => s.name);
  const rows: Row[] = [];
  const failures = new Map<string, ErrorCode>();
  await Promise.all(
    names.map(async (server) => {
      try {
        const catalog = await host.calls.catalog(server);
        for (const item of pick(catalog, kind)) rows.push({ ...item, server });
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

function pick(catalog: Catalog, kind: Exclude<Kind, 'tools'>): readonly object[] {
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
  if (row.reason === 'server-not-ready') return `${String(row.server)}  [server-not-ready: ${String((row.state as { kind?: string } | undefined)?.kind ?? 'unknown')}]`;
  const changed = Array.isArray(row.changedFields) ? `  [changed since you approved it: ${row.changedFields.join(', ')}]` : '';
  // Why the model is not offered it: needs-approval is said by "changed since you approved it";
  // deferred (every tool, once past the budget) is left to --json, not repeated on every line.
  const why = typeof row.reason === 'string' && row.reason !== 'needs-approval' && row.reason !== 'deferred' && row.reason !== 'app-only' ? `  [${row.reason}]` : '';
  const app = kind === 'tools' ? appMark(row) : '';
  return `${String(row.server)}  ${String(row.name)}${why}${changed}${app}${desc}`;
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
