import type { ServerSummary } from '../../../preload/contract';
import { HarborError, toErrorData } from '../../host/errors';
import type { Host } from '../../host/host';
import { loadTokenCounter, serverTokenCost, type ServerTokenCost } from '../../host/tools/tokens';
import type { CliCommandCode } from '../command';
import { exitCodeForFailures } from '../output';

/** The `harbor servers --json` line: the contract scripts rely on. */
export function serverLine(s: ServerSummary, tokens?: ServerTokenCost): Record<string, unknown> {
  return {
    name: s.name,
    transport: s.transport,
    ...(s.sandboxed ? { sandboxed: true } : {}),
    state: s.state.kind,
    ...(s.era ? { era: s.era } : {}),
    ...(s.protocolVersion ? { protocolVersion: s.protocolVersion } : {}),
    ...(s.serverInfo ? { serverInfo: s.serverInfo } : {}),
    tools: s.counts.tools,
    resources: s.counts.resources,
    prompts: s.counts.prompts,
    // o200k_base tokens the model context pays for this server: its enabled tools' definitions and its instructions.
    ...(tokens ? { toolTokens: tokens.toolTokens, instructionTokens: tokens.instructionTokens } : {}),
    ...(s.state.kind === 'error'
      ? { error: { code: s.state.code, message: s.state.message, stderrTail: s.state.stderrTail } }
      : {}),
    // A remote server's sign-in: {"state": "signed-in"|"expired"|"refused"|"none", "subject"?, "expiresAt"?, "message"?}
    ...(s.signIn ? { signIn: s.signIn } : {}),
  };
}

/** The sign-in line under a remote server's line (none when Harbor holds no sign-in and none lapsed). */
function signInLine(s: ServerSummary): string {
  const signIn = s.signIn;
  if (!signIn || signIn.state === 'none') return '';
  const until = signIn.expiresAt !== undefined ? ` until ${new Date(signIn.expiresAt).toISOString().replace('T', ' ').slice(0, 16)} UTC` : '';
  if (signIn.state === 'signed-in') return `\n    signed in${signIn.subject ? ` as ${signIn.subject}` : ''}${until}`;
  return `\n    sign-in ${signIn.state}: ${signIn.message ?? ''}`;
}

/** Token costs of the servers that are ready (the others have no catalog to count). */
async function tokenCosts(host: Host, summaries: readonly ServerSummary[]): Promise<Map<string, ServerTokenCost>> {
  const costs = new Map<string, ServerTokenCost>();
  const ready = summaries.filter((s) => s.state.kind === 'ready');
  if (ready.length === 0) return costs;
  const count = await loadTokenCounter();
  const settings = host.settings.chat();
  for (const s of ready) {
    try {
      const [catalog, instructions] = await Promise.all([host.calls.catalog(s.name), host.calls.instructions(s.name)]);
      costs.set(s.name, serverTokenCost(count, catalog.tools, instructions, settings.disabledTools(s.name)));
    } catch {
      // It went away since: no figure rather than a wrong one.
    }
  }
  return costs;
}

function humanLine(s: ServerSummary, tokens?: ServerTokenCost): string {
  return `${stateLine(s, tokens)}${signInLine(s)}`;
}

function stateLine(s: ServerSummary, tokens?: ServerTokenCost): string {
  const head = `${s.name.padEnd(16)} ${s.state.kind.padEnd(10)} ${s.transport.padEnd(5)}${s.sandboxed ? ' sandboxed' : ''}`;
  if (s.state.kind === 'error') {
    const tail = s.state.stderrTail.trim() ? `\n${s.state.stderrTail.trim().split('\n').map((l) => `    | ${l}`).join('\n')}` : '';
    return `${head} ${s.state.code}: ${s.state.message}${tail}`;
  }
  if (s.state.kind === 'stopped') return `${head} ${s.enabled ? '' : '(disabled) '}${s.target}`;
  // Parts a server may not send (a version, an era before the first answer) leave no doubled space.
  const era = [s.era, s.protocolVersion].filter(Boolean).join(' ');
  const software = s.serverInfo ? [s.serverInfo.name, s.serverInfo.version].filter(Boolean).join(' ') : '';
  const cost = tokens ? `  (~${tokens.toolTokens + tokens.instructionTokens} tokens in the model's context)` : '';
  const counts = `tools ${s.counts.tools}, resources ${s.counts.resources}, prompts ${s.counts.prompts}`;
  return `${[`${head}${era ? ` ${era}` : ''}`, software, counts].filter(Boolean).join('  ')}${cost}`;
}

/** Remote servers' sign-ins read from the keychain, also for those that did not connect (not approved, unreachable). */
async function withSignIns(host: Host, summaries: readonly ServerSummary[], warn: (line: string) => void): Promise<ServerSummary[]> {
  const remote = summaries.filter((s) => s.transport === 'http' && s.enabled && !s.signIn);
  if (remote.length === 0) return [...summaries];
  // A keychain that cannot be read leaves the line without a sign-in rather than failing the
  // listing, and says so on stderr.
  await Promise.all(
    remote.map((s) =>
      host.auth.status(s.name).catch((error: unknown) => warn(`warning: the sign-in of "${s.name}" could not be read: ${toErrorData(error).message}`)),
    ),
  );
  return summaries.map((s) => (remote.includes(s) ? host.servers.get(s.name) : s));
}

async function startEvery(host: Host): Promise<ServerSummary[]> {
  await host.servers.startAll();
  return host.servers.list();
}

/** `harbor servers NAME…`: only those are started (a broken server not named never runs), listed in the order given. */
async function startNamed(host: Host, names: readonly string[]): Promise<ServerSummary[]> {
  const known = host.servers.names();
  const unknown = names.find((name) => !known.includes(name));
  if (unknown !== undefined) throw new HarborError('SERVER_NOT_FOUND', `No server named "${unknown}". Known servers: ${known.join(', ') || '(none)'}.`);
  const wanted = [...new Set(names)];
  // Not dropped: a start that fails leaves the server in its error state, which its line prints
  // (code, message, stderr) and which decides the exit code below.
  await Promise.all(wanted.map((name) => host.servers.start(name).catch(() => undefined)));
  const byName = new Map(host.servers.list().map((s) => [s.name, s]));
  return wanted.map((name) => byName.get(name)!);
}

export const serversCommand: CliCommandCode = {
  async run(ctx) {
    // --yes approves launches for this run only: nothing is written.
    const host = await ctx.host({ readOnly: true });
    host.registry.requireValid();
    const started = ctx.args.length > 0 ? await startNamed(host, ctx.args) : await startEvery(host);
    const summaries = await withSignIns(host, started, (line) => ctx.out.info(line));
    const costs = await tokenCosts(host, summaries);
    for (const s of summaries) ctx.out.result(serverLine(s, costs.get(s.name)), humanLine(s, costs.get(s.name)));
    if (summaries.length === 0) ctx.out.info('No servers configured. Add one to the registry file, or run "harbor import FILE".');
    // A launch waiting for approval exits 4, a failed start 3, a config problem 2 (the first failure decides).
    return exitCodeForFailures(summaries.flatMap((s) => (s.state.kind === 'error' ? [s.state.code] : [])));
  },
};
