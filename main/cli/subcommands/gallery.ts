import type { GalleryServerData } from '../../../preload/contract';
import type { CliCommandCode, CliContext } from '../command';
import { parseIntOption } from '../json-option';
import { GALLERY_USAGE } from '../usage';
import { EXIT, UsageError } from '../output';
import { parseAllowEnv, parseSetOptions } from '../set-option';
import { reportInstall } from './install';


/**
 * `harbor gallery search QUERY` and `harbor gallery add NAME`: the MCP Registry (the official one,
 * or --registry URL, or the first one in the "installs" settings). `add` installs one way of
 * running the server (the first Harbor can run, or --option N) and shows the exact command first.
 */
export const galleryCommand: CliCommandCode = {
  async run(ctx) {
    const [action, subject] = ctx.args;
    if (action === 'search') return search(ctx, subject);
    if (action === 'add') {
      if (!subject) throw new UsageError(`gallery add needs the server's NAME (as "harbor gallery search" shows it). Usage: harbor ${GALLERY_USAGE}`);
      return add(ctx, subject);
    }
    throw new UsageError(`unknown gallery action "${action ?? ''}". Usage: harbor ${GALLERY_USAGE}`);
  },
};

const registryOption = (ctx: CliContext) => (typeof ctx.options.registry === 'string' ? { registry: ctx.options.registry } : {});

async function search(ctx: CliContext, query: string | undefined): Promise<number> {
  const limit = parseIntOption('limit', ctx.options.limit, { min: 1, max: 100 });
  const host = await ctx.host();
  const page = await host.gallery.search({
    ...(query ? { query } : {}),
    ...registryOption(ctx),
    ...(typeof ctx.options.cursor === 'string' ? { cursor: ctx.options.cursor } : {}),
    ...(limit ? { limit } : {}),
  });
  for (const server of page.servers) ctx.out.result(server, humanServer(server));
  if (page.servers.length === 0) ctx.out.info(`No servers in ${page.registry} match${query ? ` "${query}"` : ''}.`);
  if (page.nextCursor) {
    ctx.out.result({ nextCursor: page.nextCursor }, undefined);
    ctx.out.info(`More results: harbor gallery search ${query ?? ''} --cursor ${page.nextCursor}`.replace(/\s+/g, ' '));
  }
  return EXIT.OK;
}

function humanServer(server: GalleryServerData): string {
  const lines = [`${server.name}  ${server.version}${server.title ? `  ${server.title}` : ''}${server.status && server.status !== 'active' ? `  [${server.status}]` : ''}`, `    ${server.description}`];
  if (server.repository) lines.push(`    repository: ${server.repository.url}`);
  for (const option of server.options) {
    const how = option.kind === 'remote' ? `remote ${option.type} ${option.identifier}` : `${option.type} ${option.identifier}${option.version ? ` ${option.version}` : ''}`;
    lines.push(`    [${option.index}] ${how}${option.supported ? '' : `  (${option.note ?? 'not supported'})`}`);
    for (const input of option.inputs) {
      const flags = [input.kind, input.required ? 'required' : 'optional', ...(input.secret ? ['secret'] : []), ...(input.default !== undefined ? [`default ${input.default}`] : [])];
      lines.push(`        --set ${input.key}=…  (${flags.join(', ')})${input.description ? `  ${input.description}` : ''}`);
    }
  }
  return lines.join('\n');
}

async function add(ctx: CliContext, server: string): Promise<number> {
  const values = parseSetOptions(ctx.options.set);
  const option = parseIntOption('option', ctx.options.option, { min: 0, max: 1000 });
  const host = await ctx.host();
  host.registry.requireValid();
  const pick = { server, ...registryOption(ctx), ...(typeof ctx.options.version === 'string' ? { version: ctx.options.version } : {}), ...(option !== undefined ? { option } : {}) };
  const allowEnv = parseAllowEnv(ctx.options['allow-env']);
  const common = {
    ...(typeof ctx.options.name === 'string' ? { name: ctx.options.name } : {}),
    dryRun: ctx.options['dry-run'] === true,
    approveLaunch: ctx.options.yes === true,
    ...(allowEnv ? { allowEnv } : {}),
    allowLookalike: ctx.options['allow-lookalike'] === true,
  };
  if (await host.gallery.isBundle(pick)) {
    const review = await host.gallery.fetchBundle(pick);
    const outcome = await host.bundles.install(review.id, { values, ...common });
    reportInstall(ctx, outcome, { review, approved: common.approveLaunch, source: `${server} (MCP Registry, MCPB package checked against its SHA-256)` });
    return EXIT.OK;
  }
  const outcome = await host.gallery.install({ ...pick, values, ...common });
  reportInstall(ctx, outcome, { approved: common.approveLaunch, source: `${server} (MCP Registry)` });
  return EXIT.OK;
}
