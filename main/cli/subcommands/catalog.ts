import type { Catalog } from '../../host/servers/catalog';
import { loadTokenCounter, toolTokens } from '../../host/tools/tokens';
import type { CliCommand, CliContext } from '../command';
import type { ErrorCode } from '../../../preload/contract';
import { HarborError } from '../../host/errors';
import { exitCodeForFailures } from '../output';

type Kind = 'tools' | 'resources' | 'prompts';

/** Lists one catalog kind of one server, or (tools) of every enabled server. */
async function listKind(ctx: CliContext, kind: Kind): Promise<number> {
  const host = await ctx.host();
  host.registry.requireValid();
  const names = ctx.args[0] !== undefined ? [ctx.args[0]] : host.servers.list().filter((s) => s.enabled).map((s) => s.name);
  const rows: Record<string, unknown>[] = [];
  const failures = new Map<string, ErrorCode>();
  // `tokens`: what the tool's definition costs in the model's context (o200k_base).
  const count = kind === 'tools' ? await loadTokenCounter() : undefined;
  await Promise.all(
    names.map(async (server) => {
      try {
        const catalog = await host.calls.catalog(server);
        for (const item of pick(catalog, kind)) {
          rows.push({ ...item, server, ...(count ? { tokens: toolTokens(count, item as { name: string }) } : {}) });
        }
      } catch (error) {
        if (ctx.args[0] !== undefined) throw error;
        failures.set(server, error instanceof HarborError ? error.code : 'INTERNAL');
        ctx.out.error(`${server}: ${(error as Error).message}`);
      }
    }),
  );
  rows.sort((a, b) => names.indexOf(String(a.server)) - names.indexOf(String(b.server)));
  ctx.out.result(rows, rows.map((r) => human(r, kind)).join('\n') || `(no ${kind})`);
  // In registry order, as `servers` does: the first failing server decides (waiting launches last).
  return exitCodeForFailures(names.flatMap((name) => (failures.has(name) ? [failures.get(name)!] : [])));
}

function pick(catalog: Catalog, kind: Kind): readonly object[] {
  if (kind === 'resources') return [...catalog.resources, ...catalog.resourceTemplates];
  return catalog[kind];
}

function human(row: Record<string, unknown>, kind: Kind): string {
  const desc = typeof row.description === 'string' ? `  ${row.description.split('\n')[0]!.slice(0, 100)}` : '';
  if (kind === 'resources') return `${String(row.server)}  ${String(row.uri ?? row.uriTemplate)}  ${String(row.name ?? '')}${desc}`;
  return `${String(row.server)}  ${String(row.name)}${desc}`;
}

export const toolsCommand: CliCommand = {
  name: 'tools',
  summary: 'List the tools of one server, or of every enabled server',
  usage: 'tools [SERVER] [--yes]',
  options: { yes: { type: 'boolean' } },
  positionals: { min: 0, max: 1 },
  run: (ctx) => listKind(ctx, 'tools'),
};

export const resourcesCommand: CliCommand = {
  name: 'resources',
  summary: 'List the resources and resource templates of a server',
  usage: 'resources SERVER [--yes]',
  options: { yes: { type: 'boolean' } },
  positionals: { min: 1, max: 1 },
  run: (ctx) => listKind(ctx, 'resources'),
};

export const promptsCommand: CliCommand = {
  name: 'prompts',
  summary: 'List the prompts of a server',
  usage: 'prompts SERVER [--yes]',
  options: { yes: { type: 'boolean' } },
  positionals: { min: 1, max: 1 },
  run: (ctx) => listKind(ctx, 'prompts'),
};
