import type { CliCommandCode } from '../command';
import { CONSENT_USAGE } from '../usage';
import { EXIT, UsageError } from '../output';


/** `harbor consent …`: list, grant and revoke the person's decisions (kept in the data dir). */
export const consentCommand: CliCommandCode = {
  async run(ctx) {
    const [action, server, tool] = ctx.args;
    const host = await ctx.host({ readOnly: action === 'list' });
    switch (action) {
      case 'list': {
        if (server !== undefined) throw new UsageError(`consent list takes no arguments. Usage: harbor ${CONSENT_USAGE}`);
        const d = host.consent.decisions();
        const skills = host.skills.approvals();
        const lines = [
          ...d.approvals.map((a) => `${a.server}  ${a.tool}  ${a.kind === 'always' ? 'always' : 'next call'}  ${a.fingerprint.slice(0, 12)}  ${new Date(a.createdAt).toISOString()}`),
          ...d.launches.map((l) => `${l.server}  (launch)  ${l.commandLine}`),
          ...d.changes.map((c) => `${c.server}  ${c.tool}  CHANGED ${c.changed.join(', ')}  ${new Date(c.at).toISOString()}`),
          ...skills.map((a) => `${a.server}  (skill) ${a.uri}  ${a.files.map((f) => `${f.uri} ${f.digest.replace(/^sha256:/, '').slice(0, 12)}`).join(', ')}  ${new Date(a.createdAt).toISOString()}`),
        ];
        ctx.out.result({ ...d, skills }, lines.join('\n') || '(no decisions recorded)');
        return EXIT.OK;
      }
      case 'grant': {
        if (server === undefined || tool === undefined) throw new UsageError(`consent grant needs SERVER and TOOL. Usage: harbor ${CONSENT_USAGE}`);
        host.registry.requireValid();
        const always = ctx.options.always === true;
        await host.consent.grantTool(server, tool, always);
        ctx.out.result(
          { granted: { server, tool, kind: always ? 'always' : 'once' } },
          always
            ? `Approved "${tool}" on "${server}" as it is defined now. If the server changes it, Harbor asks again.`
            : `Approved the next call of "${tool}" on "${server}".`,
        );
        return EXIT.OK;
      }
      case 'grant-launch': {
        if (server === undefined || tool !== undefined) throw new UsageError(`consent grant-launch needs SERVER. Usage: harbor ${CONSENT_USAGE}`);
        host.registry.requireValid();
        const approved = host.servers.approveLaunch(server);
        const headers = approved.headerNames?.length ? ` with the headers ${approved.headerNames.join(', ')}` : '';
        ctx.out.result(
          { granted: { server, launch: approved.target, ...(approved.headerNames ? { headerNames: approved.headerNames } : {}) } },
          approved.transport === 'http' ? `Approved connecting to "${server}": ${approved.target}${headers}` : `Approved launching "${server}": ${approved.target}`,
        );
        return EXIT.OK;
      }
      case 'revoke': {
        if (server === undefined) throw new UsageError(`consent revoke needs SERVER. Usage: harbor ${CONSENT_USAGE}`);
        const removed = host.consent.revoke(server, tool);
        ctx.out.result({ removed }, `Revoked ${removed} approval${removed === 1 ? '' : 's'} of ${tool ? `"${tool}" on ` : ''}"${server}".`);
        return EXIT.OK;
      }
      case 'grant-skill': {
        if (server === undefined || tool === undefined) throw new UsageError(`consent grant-skill needs SERVER and URI (the skill's SKILL.md URI, as harbor skills lists it). Usage: harbor ${CONSENT_USAGE}`);
        host.registry.requireValid();
        const files = await host.skills.grant(server, tool);
        ctx.out.result(
          { granted: { server, skill: tool, files } },
          `Approved the skill ${tool} of "${server}" as it is now (${files.length} file${files.length === 1 ? '' : 's'}). If any of its files changes, Harbor asks again.`,
        );
        return EXIT.OK;
      }
      case 'revoke-skill': {
        if (server === undefined || tool === undefined) throw new UsageError(`consent revoke-skill needs SERVER and URI. Usage: harbor ${CONSENT_USAGE}`);
        host.registry.requireValid();
        const removed = host.skills.revoke(server, tool);
        ctx.out.result({ removed }, `Revoked ${removed} approval${removed === 1 ? '' : 's'} of the skill ${tool} of "${server}".`);
        return EXIT.OK;
      }
      default:
        throw new UsageError(`unknown consent action "${action}". Usage: harbor ${CONSENT_USAGE}`);
    }
  },
};
