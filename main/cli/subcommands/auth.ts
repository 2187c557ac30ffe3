import { platformOpener, type BrowserOpener } from '../../host/auth/opener';
import { untilAborted } from '../../host/chat/abortable';
import type { CliCommandCode } from '../command';
import { EXIT, UsageError } from '../output';

/**
 * `harbor login SERVER [--open]`: signs in to a remote server with OAuth. The sign-in page's URL
 * goes to stderr (stdout stays machine-readable); --open also hands it to the platform's opener.
 * Waits for the browser to come back to Harbor's loopback listener (5 minutes at most), stores the
 * tokens in the OS keychain, and exits 0 once the server is ready. Ctrl-C cancels.
 */
export const loginCommand: CliCommandCode = {
  async run(ctx) {
    const name = ctx.args[0]!;
    const host = await ctx.host();
    let shown = false;
    const fallback = ctx.options.open === true ? platformOpener() : undefined;
    const opener: BrowserOpener = async (url) => {
      shown = true;
      ctx.out.info(`Sign in to "${name}" in your browser:\n  ${url.href}\nWaiting for the sign-in to finish (up to 5 minutes; Ctrl-C cancels)…`);
      // The printed URL works whatever happens here: a missing opener is a note, not a failure.
      await fallback?.(url).catch((error: unknown) => ctx.out.info(`note: could not open a browser (${(error as Error).message}); open the URL yourself.`));
    };
    const summary = await untilAborted(host.auth.login(name, { opener }), ctx.signal, () => new UsageError('interrupted: the sign-in was cancelled.'));
    const tools = summary.counts.tools;
    ctx.out.result(
      { name, signedIn: true, state: summary.state.kind },
      shown
        ? `Signed in to "${name}": it is ready (${tools} tool${tools === 1 ? '' : 's'}). The tokens are in the OS keychain.`
        : `"${name}" is ready without a new sign-in (already signed in, or it needs none).`,
    );
    return EXIT.OK;
  },
};

/** `harbor logout SERVER`: forgets the server's tokens and client registration (revoking them first when the authorization server allows). */
export const logoutCommand: CliCommandCode = {
  async run(ctx) {
    const name = ctx.args[0]!;
    const host = await ctx.host();
    const { removed, revoked } = await host.auth.logout(name);
    ctx.out.result(
      { name, removed, revoked },
      removed
        ? `Signed out of "${name}": its tokens and client registration were removed from the keychain${revoked ? ' and revoked at the authorization server' : ''}.`
        : `"${name}" had no stored sign-in; nothing to remove.`,
    );
    return EXIT.OK;
  },
};
