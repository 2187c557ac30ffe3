import type { ServerSummary } from '../../../preload/contract';
import type { CliCommand } from '../command';
import { EXIT } from '../output';

/** The `harbor servers --json` line: the contract scripts rely on. */
export function serverLine(s: ServerSummary): Record<string, unknown> {
  return {
    name: s.name,
    transport: s.transport,
    state: s.state.kind,
    ...(s.era ? { era: s.era } : {}),
    ...(s.protocolVersion ? { protocolVersion: s.protocolVersion } : {}),
    ...(s.serverInfo ? { serverInfo: s.serverInfo } : {}),
    tools: s.counts.tools,
    resources: s.counts.resources,
    prompts: s.counts.prompts,
    ...(s.state.kind === 'error'
      ? { error: { code: s.state.code, message: s.state.message, stderrTail: s.state.stderrTail } }
      : {}),
  };
}

function humanLine(s: ServerSummary): string {
  const head = `${s.name.padEnd(16)} ${s.state.kind.padEnd(10)} ${s.transport.padEnd(5)}`;
  if (s.state.kind === 'error') {
    const tail = s.state.stderrTail.trim() ? `\n${s.state.stderrTail.trim().split('\n').map((l) => `    | ${l}`).join('\n')}` : '';
    return `${head} ${s.state.code}: ${s.state.message}${tail}`;
  }
  if (s.state.kind === 'stopped') return `${head} ${s.enabled ? '' : '(disabled) '}${s.target}`;
  const version = s.serverInfo ? `${s.serverInfo.name} ${s.serverInfo.version}` : '';
  return `${head} ${s.era ?? ''} ${s.protocolVersion ?? ''}  ${version}  tools ${s.counts.tools}, resources ${s.counts.resources}, prompts ${s.counts.prompts}`;
}

export const serversCommand: CliCommand = {
  name: 'servers',
  summary: 'Connect every enabled server in parallel and print one line per server',
  usage: 'servers [--yes]',
  options: { yes: { type: 'boolean' } },
  async run(ctx) {
    const host = await ctx.host();
    host.requireValidRegistry();
    await host.startAll();
    const summaries = host.listServers();
    for (const s of summaries) ctx.out.result(serverLine(s), humanLine(s));
    if (summaries.length === 0) ctx.out.info('No servers configured. Add one to the registry file, or run "harbor import FILE".');
    return summaries.some((s) => s.state.kind === 'error') ? EXIT.CONNECTION : EXIT.OK;
  },
};
