import type { ErrorCode } from '../../../preload/contract';
import { gatherOffer, type ToolVerdict } from '../../host/tools/offer';
import { resolveToolset } from '../../host/tools/toolsets';
import { loadTokenCounter, toolTokens } from '../../host/tools/tokens';
import type { CliContext } from '../command';

export type Row = Record<string, unknown>;

export interface Collected {
  /** The servers asked, in registry order. */
  readonly names: readonly string[];
  /** Every item of those servers, each with its `server` (and, for tools, its `tokens`). */
  readonly rows: Row[];
  readonly failures: ReadonlyMap<string, ErrorCode>;
}

/**
 * `harbor tools`' rows: each tool of the servers asked (as the server lists it now), its `tokens`,
 * whether it changed since the person approved it, and — from the one gatherer the chat and code
 * mode use (host/tools/offer.ts) — whether the model is offered it and why not: `offered` and
 * `reason` (disabled, outside-toolset, deferred, needs-approval; app-only for a tool only its app
 * may call). An enabled server that is not ready is one row: `{server, offered: false, reason:
 * "server-not-ready", state}`. With SERVER, the budget (deferred) is judged on that server alone.
 */
export async function collectTools(ctx: CliContext): Promise<Collected> {
  // Only tools/list is asked for (the lists a command does not show are not fetched).
  const host = await ctx.host({ catalog: ['tools'], readOnly: true });
  host.registry.requireValid();
  const settings = host.settings.chat();
  const toolset = typeof ctx.options.toolset === 'string' ? resolveToolset(settings.toolsets, ctx.options.toolset) : undefined;
  const single = ctx.args[0];
  // `tokens` and the budget (`deferred`) are --json's: the tokenizer's tables take the better part of
  // a second and tens of MB to load, and the person's listing shows neither.
  const json = ctx.globals.json;
  const counting = json ? loadTokenCounter() : undefined;
  counting?.catch(() => undefined); // awaited below when a server is ready (its failure is thrown there); unheard only when none is
  const gathered = await gatherOffer(
    {
      listServers: () => host.servers.list(),
      catalog: (server) => host.calls.offeredCatalog(server),
      toolChanges: (server) => host.calls.toolChanges(server),
    },
    {
      disabledTools: (server) => settings.disabledTools(server),
      ...(toolset ? { toolset } : {}),
      ...(single !== undefined ? { servers: [single] } : {}),
      ...(json ? { budget: { toolSearch: settings.toolSearch, threshold: settings.toolSearchThreshold, contextWindow: settings.contextWindow } } : {}),
    },
  );
  if (single !== undefined && gathered.unavailable[0]) throw gathered.unavailable[0].error;
  const names = single !== undefined ? [single] : host.servers.list().filter((s) => s.enabled).map((s) => s.name);
  const verdicts = new Map<string, ToolVerdict>(gathered.verdicts.map((v) => [`${v.server}\u0000${v.tool ?? ''}`, v]));
  const failures = new Map<string, ErrorCode>();
  const rows: Row[] = [];
  for (const { server, error } of gathered.unavailable) {
    failures.set(server, error.code);
    ctx.out.error(`${server}: ${error.message}`);
  }
  const count = gathered.ready.length > 0 && counting ? await counting : undefined;
  for (const name of names) {
    const notReady = verdicts.get(`${name}\u0000`);
    if (notReady) {
      rows.push({ server: name, offered: false, reason: notReady.reason, ...(notReady.state ? { state: notReady.state } : {}) });
      continue;
    }
    const [catalog, changes] = await Promise.all([host.calls.catalog(name), host.calls.toolChanges(name)]);
    const changed = new Map(changes.map((c) => [c.tool, c.changed]));
    for (const tool of catalog.tools) {
      const fields = changed.get(tool.name);
      const verdict = verdicts.get(`${name}\u0000${tool.name}`);
      rows.push({
        ...tool,
        server: name,
        ...(count ? { tokens: toolTokens(count, tool) } : {}),
        ...(fields ? { changedSinceApproval: true, changedFields: [...fields] } : {}),
        offered: verdict?.offered ?? false,
        reason: verdict ? verdict.reason : 'app-only',
      });
    }
  }
  return { names, rows, failures };
}
