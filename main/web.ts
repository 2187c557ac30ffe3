import type { CliCommand } from './cli/command';
import { EXIT } from './cli/output';

// Placeholder: browser mode is being built (see issue 2).
export const webCommand: CliCommand = {
  name: 'web',
  summary: 'Serve the app to a browser on 127.0.0.1',
  usage: 'web [--port N]',
  options: { port: { type: 'string' } },
  async run(ctx) {
    ctx.out.error('not implemented yet');
    return EXIT.USAGE;
  },
};
