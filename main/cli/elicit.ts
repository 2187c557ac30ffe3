import type { ElicitResult } from '@modelcontextprotocol/client';
import { platformOpener, type BrowserOpener } from '../host/auth/opener';
import { HarborError } from '../host/errors';
import type { Host } from '../host/host';
import type { ElicitationResponder } from '../host/servers/elicitation';
import type { CliContext } from './command';
import { describeFormFields } from './form-fields';
import { parseJsonOption } from './json-option';
import { UsageError, type CliOutput } from './output';

/** How long `--open` waits for a server to say a page is done, unless the command's --timeout says otherwise. */
export const PAGE_WAIT_MS = 5 * 60_000;

export interface CliAnswers {
  /** `--answer`: the content to accept form requests with; without it, forms are declined. */
  readonly answer: Record<string, unknown> | undefined;
  /** `--open`: pages a server asks for are opened in the system browser (and accepted). */
  readonly opener: BrowserOpener | undefined;
}

/**
 * The CLI's answer to a server asking for input. A form is accepted with `--answer` once it fits
 * the schema the server asked with (fields it does not ask for are dropped, with a note); an
 * answer that does not fit is never sent: the request is stopped and the command exits 2 naming
 * each field. Without `--answer` a form is declined. A page (URL mode) is printed; with `--open` it
 * is opened in the system browser and accepted, else declined.
 */
export function cliResponder(host: Host, answers: CliAnswers, out: CliOutput, refuse: (problem: UsageError) => void): ElicitationResponder {
  return async (server, request, context) => {
    const isPage = (request as { mode?: string }).mode === 'url';
    // Without --open, a page of an "open this page first" error is printed once, by that error.
    if (isPage && context.afterFailure && !answers.opener) return { action: 'decline' };
    out.info(`${server} asks: ${request.message}`);
    if (isPage) {
      const url = String((request as { url?: unknown }).url ?? '');
      if (!answers.opener) {
        out.info(`  declined the page ${url} (run again with --open to open it in your browser)`);
        return { action: 'decline' };
      }
      const opened = await openPage(answers.opener, url, out);
      return { action: opened ? 'accept' : 'decline' };
    }
    if (!answers.answer) {
      out.info('  (declined: no --answer given)');
      for (const line of describeFormFields('requestedSchema' in request ? request.requestedSchema : undefined)) out.info(line);
      return { action: 'decline' };
    }
    const schema = 'requestedSchema' in request ? request.requestedSchema : undefined;
    const checked = host.elicitation.checkAnswer(schema, answers.answer);
    if (!checked.ok) {
      refuse(new UsageError(`--answer does not fit what "${server}" asks for: ${checked.message}. Nothing was sent.`));
      return { action: 'cancel' };
    }
    if (checked.dropped.length > 0) out.info(`  note: --answer fields "${server}" does not ask for were left out: ${checked.dropped.join(', ')}`);
    out.info('  (answered from --answer)');
    return { action: 'accept', content: checked.content } satisfies ElicitResult;
  };
}

async function openPage(opener: BrowserOpener, url: string, out: CliOutput): Promise<boolean> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    out.info(`  declined: "${url}" is not a URL`);
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    out.info(`  declined: Harbor opens only http(s) pages, not ${url}`);
    return false;
  }
  try {
    await opener(parsed);
    out.info(`  opened ${parsed.href} in your browser`);
    return true;
  } catch (error) {
    out.info(`  note: could not open a browser (${(error as Error).message}); open ${parsed.href} yourself`);
    return true;
  }
}

/**
 * Runs one request with the CLI answering the server's questions (`--answer`, `--open`). An
 * answer that does not fit stops the request and becomes a usage error (exit 2). With `--open`, a
 * server that answers "open this page first" (URL_ELICITATION_REQUIRED: its pages reach the
 * responder as URL questions, so they are opened) gets a wait for it to say the pages are done
 * (or `waitMs`), and the request runs once more.
 */
export async function withCliAnswers<T>(ctx: CliContext, host: Host, server: string | undefined, waitMs: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const answers: CliAnswers = {
    answer: parseJsonOption('answer', ctx.options.answer),
    opener: ctx.options.open === true ? platformOpener() : undefined,
  };
  const stop = new AbortController();
  const onAbort = () => stop.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  let refused: UsageError | undefined;
  const responder = host.elicitation.respondWith(
    cliResponder(host, answers, ctx.out, (problem) => {
      refused ??= problem;
      stop.abort(problem);
    }),
  );
  try {
    try {
      const result = await run(stop.signal);
      // A refused answer stops the request; one that finished anyway (a chat turn reports "stopped") is still an error.
      if (refused) throw refused;
      return result;
    } catch (error) {
      if (refused) throw refused;
      if (!server || !answers.opener || !(error instanceof HarborError) || error.code !== 'URL_ELICITATION_REQUIRED' || !error.pages?.length) throw error;
      // The pages themselves came to the responder above, which opened them (--open).
      ctx.out.info(error.message);
      await waitForPages(host, server, error.pages, waitMs, stop.signal, ctx.out);
      return await run(stop.signal);
    }
  } catch (error) {
    throw refused ?? error;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    await responder.dispose();
  }
}

async function waitForPages(host: Host, server: string, pages: readonly { elicitationId: string }[], waitMs: number, signal: AbortSignal, out: CliOutput): Promise<void> {
  out.info(`Waiting for "${server}" to say the page is done (up to ${Math.round(waitMs / 1000)} s; Ctrl-C cancels)…`);
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(waitMs)]);
  const done = await Promise.all(pages.map((p) => (p.elicitationId ? host.elicitation.whenPageDone(server, p.elicitationId, deadline) : Promise.resolve(false))));
  if (signal.aborted) throw new UsageError('interrupted while waiting for the page.');
  out.info(done.every(Boolean) ? `"${server}" says the page is done; trying again.` : `No word from "${server}" in time; trying again.`);
}
