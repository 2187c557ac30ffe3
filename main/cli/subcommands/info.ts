import type { CliCommandCode } from '../command';
import { EXIT } from '../output';

export const infoCommand: CliCommandCode = {
  async run(ctx) {
    const info = (await ctx.host({ readOnly: true })).appInfo();
    ctx.out.result(info, [
      `${info.name} ${info.version} (node ${info.versions.node})`,
      `config:   ${info.configPath}`,
      `data dir: ${info.dataDir}`,
      ...(info.configProblems.length ? ['problems:', ...info.configProblems.map((p) => `  ${p}`)] : []),
    ].join('\n'));
    return info.configProblems.length ? EXIT.USAGE : EXIT.OK;
  },
};
