import type { ErrorCode } from '../../../preload/contract';
import { HarborError } from '../../host/errors';
import type { SkillView } from '../../host/skills/skill-service';
import type { CliCommandCode } from '../command';
import { exitCodeForFailures } from '../output';

/** What `harbor skills --json` prints for one skill: one JSON line each. */
function row(view: SkillView): Record<string, unknown> {
  return {
    server: view.server,
    name: view.name,
    uri: view.uri,
    description: view.description,
    files: view.files,
    ...(view.bytes !== undefined ? { bytes: view.bytes } : {}),
    ...(view.verified !== undefined ? { verified: view.verified } : {}),
    approved: view.approved,
    ...(view.standing === 'changed' ? { changedSinceApproval: true } : {}),
    ...(view.problem ? { problem: view.problem } : {}),
  };
}

function human(view: SkillView): string {
  const size = view.files === 'dynamic' ? 'dynamic (unverifiable)' : `${view.files} file${view.files === 1 ? '' : 's'}, ${view.bytes ?? 0} bytes`;
  const state = view.problem
    ? `over the limits: ${view.problem}`
    : view.standing === 'approved'
      ? 'approved'
      : view.standing === 'changed'
        ? 'changed since you approved it'
        : view.standing === 'dynamic'
          ? 'asked at every load'
          : 'not approved';
  const verified = view.verified === true ? ', verified' : view.verified === false && view.files !== 'dynamic' ? ', FAILED verification' : '';
  return `${view.server}  ${view.name}  ${view.uri}  ${size}${verified}  [${state}]  ${view.description.split('\n')[0]!.slice(0, 100)}`;
}

/**
 * `harbor skills [SERVER]`: the skills one server, or every enabled server, publishes (the Skills
 * extension). Lists only: nothing of a skill's files is read. A server that fails is reported on
 * stderr and left out; the exit code is the first failure's.
 */
export const skillsCommand: CliCommandCode = {
  async run(ctx) {
    const host = await ctx.host({ readOnly: true });
    host.registry.requireValid();
    const names = ctx.args[0] !== undefined ? [ctx.args[0]] : host.servers.list().filter((s) => s.enabled).map((s) => s.name);
    const failures = new Map<string, ErrorCode>();
    const listed = await Promise.all(
      names.map(async (server) => {
        try {
          return await host.skills.list(server, { signal: ctx.signal });
        } catch (error) {
          if (ctx.args[0] !== undefined) throw error;
          failures.set(server, error instanceof HarborError ? error.code : 'INTERNAL');
          ctx.out.error(`${server}: ${(error as Error).message}`);
          return [];
        }
      }),
    );
    const views = listed.flat();
    if (ctx.globals.json) for (const view of views) ctx.out.result(row(view));
    else ctx.out.result(views.map(row), views.map(human).join('\n') || '(no skills)');
    return exitCodeForFailures(names.flatMap((name) => (failures.has(name) ? [failures.get(name)!] : [])));
  },
};
