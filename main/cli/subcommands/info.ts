import type { CliCommand } from '../command';
import { EXIT } from '../output';

export const infoCommand: CliCommand = {
  name: 'info',
  summary: 'Show the version, the registry file in use and any problems in it',
  usage: 'info',
  async run(ctx) {
    const info = (await ctx.host()).appInfo();
    ctx.out.result(info, [
      `${info.name} ${info.version} (node ${info.versions.node})`,
      `config:   ${info.configPath}`,
      `data dir: ${info.dataDir}`,
      ...(info.configProblems.length ? ['problems:', ...info.configProblems.map((p) => `  ${p}`)] : []),
    ].join('\n'));
    return info.configProblems.length ? EXIT.USAGE : EXIT.OK;
  },
};
