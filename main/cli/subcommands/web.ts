/**
 * `harbor web [--port N]` — browser mode: the real renderer in any browser, over the same Host and
 * the same contract as the Electron app, served on 127.0.0.1 only (see main/web/security.ts for why
 * each check exists). Prints one JSON line `{"url": …}` on stdout when ready and runs until
 * SIGINT/SIGTERM.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CliCommandCode } from '../command';
import { parseIntOption } from '../json-option';
import { builtRendererDir } from '../layout';
import { EXIT } from '../output';

export const webCommand: CliCommandCode = {
  async run(ctx) {
    // 0 (the default) picks a free port.
    const port = parseIntOption('port', ctx.options.port, { max: 65_535 }) ?? 0;
    const rendererDir = rendererDirFor();
    if (!existsSync(join(rendererDir, 'index.html'))) {
      ctx.out.error(`the app's pages are not built (${join(rendererDir, 'index.html')} is missing). Run "npm run build" in the Harbor folder first.`);
      return EXIT.USAGE;
    }
    if (ctx.signal.aborted) return EXIT.OK;

    // Loaded here, not at startup: the rest of the CLI never needs the web server.
    const [{ bindCommands }, { createDispatcher }, { WebServer }] = await Promise.all([
      import('../../contract-handlers'),
      import('../../dispatch'),
      import('../../web/server'),
    ]);
    // Our own Host (mode 'web', so the page can tell which door it came through); we dispose it.
    // The CLI's redactor comes with it, so the terminal output of browser mode is masked too.
    const host = await ctx.createHost('web');
    try {
      const server = await WebServer.start({
        rendererDir,
        port,
        dispatch: createDispatcher(bindCommands(host)),
        events: host.events,
        appPolicy: (instanceId) => host.apps.sandboxPolicy(instanceId),
        reportSocketCut: (reason) => ctx.out.info(reason),
      });
      // MCP Apps open in frames served by the server's second origin.
      const sandbox = server.appSandbox;
      const attached = sandbox ? host.apps.attachSandbox({ urlFor: (id) => sandbox.urlFor(id) }) : undefined;
      try {
        const line = JSON.stringify({ url: server.url });
        ctx.out.result({ url: server.url }, line); // the one stdout line, with or without --json
        ctx.out.info(`Harbor is serving on http://127.0.0.1:${server.port} — open the URL above (it carries this launch's access token). Ctrl+C stops it.`);
        for (const problem of host.appInfo().configProblems) ctx.out.info(`config problem: ${problem}`);
        void host.sweepOrphans().then(({ stopped }) => {
          if (stopped.length > 0) ctx.out.info(`stopped ${stopped.length} server process(es) left running by a Harbor that did not quit cleanly`);
        });
        // Like the app: enabled servers start at launch (a launch that needs consent waits for the
        // person in the page, which fetches pending requests when it connects).
        if (ctx.options['no-autostart'] !== true) void host.servers.startAll();
        await untilAborted(ctx.signal);
      } finally {
        await attached?.dispose();
        await server.dispose();
      }
    } finally {
      await host.dispose();
    }
    return EXIT.OK;
  },
};

/** The built renderer (out/renderer); HARBOR_RENDERER_DIR overrides it (tests, unusual layouts). */
export function rendererDirFor(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HARBOR_RENDERER_DIR) return resolve(env.HARBOR_RENDERER_DIR);
  return builtRendererDir();
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
