import type { ChatMissingServer, ChatToolCall } from '../../../preload/contract';
import type { TurnEvent } from '../../host/chat/turn';
import { HarborError } from '../../host/errors';
import { resolveToolset } from '../../host/tools/toolsets';
import type { CliCommandCode, CliContext } from '../command';
import { PAGE_WAIT_MS, withCliAnswers } from '../elicit';
import { EXIT, exitCodeForCode } from '../output';

/** Exit code of a turn the person interrupted (Ctrl-C), as shells report SIGINT. */
export const EXIT_INTERRUPTED = EXIT.INTERRUPTED;

/**
 * `harbor chat [--conversation ID] [--toolset NAME] [--yes] [--answer JSON] "message"`: one turn,
 * headless; --toolset limits the conversation to that toolset from now on (remembered with it). The
 * model's text streams to stdout; tool calls and results go to stderr (human) or, with --json,
 * every event is a JSON line on stdout: text / toolCall / toolResult / done.
 */
export const chatCommand: CliCommandCode = {
  async run(ctx) {
    const text = ctx.args[0]!;
    if (!text.trim()) throw new HarborError('BAD_REQUEST', 'The message is empty. Usage: harbor chat "your message"');
    const conversationId = typeof ctx.options.conversation === 'string' ? ctx.options.conversation : undefined;
    const toolset = typeof ctx.options.toolset === 'string' ? ctx.options.toolset : undefined;
    // --start-all: every server starts up front, as without a catalog cache (none is offered from it).
    const host = await ctx.host({ catalogCache: true, ...(ctx.options['start-all'] === true ? { startAll: true } : {}) });
    host.registry.requireValid();
    // An unknown toolset is the person's mistake (exit 2), said before any server starts or model is asked.
    if (toolset !== undefined) resolveToolset(host.settings.chat().toolsets, toolset);
    const printer = new TurnPrinter(ctx);
    // A server's question during the turn is answered as `harbor call` answers it; an --answer
    // that does not fit stops the turn (exit 2). "Open this page first" errors reach the model.
    const outcome = await withCliAnswers(ctx, host, undefined, PAGE_WAIT_MS, async (signal) => {
      // No model, or an unknown --conversation: usage errors (exit 2), like every CLI error.
      const turn = await host.chat.send({
        text,
        ...(conversationId ? { conversationId } : {}),
        ...(toolset !== undefined ? { toolset } : {}),
        approveOnce: ctx.options.yes === true,
        signal,
        onEvent: (event) => printer.event(event),
      });
      if (!ctx.globals.json) ctx.out.info(`conversation ${turn.conversationId}`);
      return turn.done;
    });
    printer.flush();
    ctx.out.result({
      type: 'done',
      text: outcome.text,
      status: outcome.status,
      conversationId: outcome.conversationId,
      turnId: outcome.turnId,
      ...(outcome.note ? { note: outcome.note } : {}),
    });
    if (outcome.note && !ctx.globals.json) ctx.out.info(outcome.note);
    switch (outcome.status) {
      case 'completed':
      case 'maxSteps':
        return EXIT.OK;
      case 'stopped':
        return EXIT_INTERRUPTED;
      case 'consentRequired': {
        const error = outcome.error ?? { code: 'CONSENT_REQUIRED', message: outcome.note ?? 'Consent is required.' };
        ctx.out.result({ error });
        if (!ctx.globals.json) ctx.out.error(error.message);
        return EXIT.CONSENT;
      }
      default: {
        const error = outcome.error ?? { code: 'INTERNAL', message: outcome.note ?? 'The turn failed.' };
        ctx.out.result({ error });
        ctx.out.error(error.message);
        return exitCodeForCode(error.code);
      }
    }
  },
};

/** Prints a turn's events as they come: streamed text by lines (human) or JSON lines. */
class TurnPrinter {
  private pending = '';
  private readonly announced = new Set<string>();
  /** Calls of run_code scripts already printed, by "<run_code id>:<call id>:<started|ended>". */
  private readonly scriptLines = new Set<string>();

  constructor(private readonly ctx: CliContext) {}

  event(event: TurnEvent): void {
    if (event.type === 'text') this.text(event.delta);
    else if (event.type === 'toolCall') this.toolCall(event.call, event.progress);
    else if (event.type === 'missing') this.missing(event.servers);
    // A tool's arguments as they stream are for its app; the terminal shows the call when it is made.
  }

  /** Servers this conversation used that the turn cannot offer: said before the answer, on stderr (--json: a line of its own). */
  private missing(servers: readonly ChatMissingServer[]): void {
    if (this.ctx.globals.json) {
      this.ctx.out.result({ type: 'missing', servers });
      return;
    }
    for (const { server, reason } of servers) this.ctx.out.info(`Not available this turn — ${server}: ${reason}`);
  }

  private text(delta: string): void {
    if (this.ctx.globals.json) {
      this.ctx.out.result({ type: 'text', delta });
      return;
    }
    this.pending += delta;
    const lines = this.pending.split('\n');
    this.pending = lines.pop() ?? '';
    for (const line of lines) this.ctx.out.text(line);
  }

  /** A run_code script's own tool calls, as they start and end (human mode, stderr). */
  private scriptCalls(call: ChatToolCall): void {
    for (const c of call.code?.calls ?? []) {
      const name = `${c.server} › ${c.tool}`;
      if (!this.scriptLines.has(`${call.id}:${c.id}:started`)) {
        this.scriptLines.add(`${call.id}:${c.id}:started`);
        this.ctx.out.info(`  → ${name} ${JSON.stringify(c.arguments)}`);
      }
      if ((c.status === 'done' || c.status === 'error') && !this.scriptLines.has(`${call.id}:${c.id}:ended`)) {
        this.scriptLines.add(`${call.id}:${c.id}:ended`);
        this.ctx.out.info(c.status === 'done' ? `  ← ${name} ok` : `  ✗ ${name} ${c.error?.code ?? ''}: ${c.error?.message ?? ''}`);
      }
    }
  }

  flush(): void {
    if (this.pending) this.ctx.out.text(this.pending);
    this.pending = '';
  }

  private toolCall(call: ChatToolCall, progress?: { progress: number; total?: number; message?: string }): void {
    const out = this.ctx.out;
    if (!this.announced.has(call.id)) {
      this.announced.add(call.id);
      this.flush();
      out.result(
        { type: 'toolCall', id: call.id, server: call.server ?? null, tool: call.tool ?? call.name, arguments: call.arguments },
        undefined,
      );
      if (!this.ctx.globals.json) out.info(`→ ${call.server ? `${call.server} › ${call.tool ?? call.name}` : call.name} ${JSON.stringify(call.arguments)}`);
    }
    if (call.code && !this.ctx.globals.json) this.scriptCalls(call);
    if (progress && !this.ctx.globals.json) {
      out.info(`  progress ${progress.progress}${progress.total !== undefined ? `/${progress.total}` : ''}${progress.message ? ` ${progress.message}` : ''}`);
    }
    if (call.status === 'done' || call.status === 'error') {
      const content = call.result?.content ?? [{ type: 'text', text: call.error?.message ?? '' }];
      const isError = call.status === 'error' || call.result?.isError === true;
      out.result({ type: 'toolResult', id: call.id, content, isError }, undefined);
      if (!this.ctx.globals.json) {
        const summary = content
          .map((b) => ((b as { type?: string }).type === 'text' ? String((b as { text?: string }).text ?? '') : `[${String((b as { type?: string }).type)}]`))
          .join(' ')
          .replace(/\s+/g, ' ')
          .slice(0, 300);
        out.info(`${isError ? '✗' : '←'} ${summary}`);
      }
    }
  }
}
