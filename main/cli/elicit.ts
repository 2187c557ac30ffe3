import type { ElicitationResponder } from '../host/servers/elicitation';
import type { CliOutput } from './output';

/**
 * The CLI's answer to a server asking for input: with `--answer JSON`, accept form requests with
 * that content; without it, a non-interactive run declines (a real `decline`, not a cancel).
 * URL-mode requests are always declined: the CLI does not open browsers for servers.
 */
export function answerElicitationsFrom(answer: Record<string, unknown> | undefined, out: CliOutput): ElicitationResponder {
  return async (server, request) => {
    const mode = (request as { mode?: string }).mode ?? 'form';
    out.info(`${server} asks: ${request.message}`);
    if (mode === 'url') {
      out.info(`  (declined: the CLI does not open URLs; URL was ${(request as { url?: string }).url ?? '?'})`);
      return { action: 'decline' };
    }
    if (!answer) {
      out.info('  (declined: no --answer given)');
      return { action: 'decline' };
    }
    out.info(`  (answered from --answer)`);
    return { action: 'accept', content: answer as Record<string, string | number | boolean | string[]> };
  };
}
