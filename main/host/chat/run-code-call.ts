import type { ChatToolCall, CodeCall, CodeRun, ConsentChoice, HarborErrorData } from '../../../preload/contract';
import { declareCall } from '../code-mode/declarations';
import { RUN_CODE, runCodeOutput, scriptOf } from '../code-mode/run-code-tool';
import { CALL_WINDOW, type CodeRunEvent, type CodeRunOutcome } from '../code-mode/script-run';
import { HarborError } from '../errors';
import type { Disposable } from '../lifecycle';
import { toolErrorOutput, translateToolResult } from '../tools/results';
import type { ToolIndex } from '../tools/tool-index';
import type { ModelToolCall } from './model-step';
import type { ToolRunContext, ToolRunOutcome } from './tool-run';
import type { TurnCode } from './turn-code';

/** How often a running script's card is sent again as its calls and lines come in. */
const EMIT_EVERY_MS = 50;

/**
 * run_code: runs the model's script in the sandbox. Each tool call it makes goes through the
 * chat's port exactly like a direct call of the model — the consent gate (with this
 * conversation's approvals), elicitation shown on this card, cancellation by Stop — so
 * approving one call approves nothing else. The card shows the script, each call as it goes
 * (its consent too), the printed lines and the result; the model gets the result and the lines.
 */
export async function runCodeCall(call: ModelToolCall, ctx: ToolRunContext, code: TurnCode): Promise<ToolRunOutcome> {
  const script = scriptOf(call.input);
  const view: ChatToolCall = { id: call.toolCallId, name: RUN_CODE, arguments: call.input ?? {}, status: 'running', approval: 'not-needed', startedAt: ctx.now() };
  const rowId = ctx.store.insertToolCall(ctx.conversationId, { turnId: ctx.turnId, step: ctx.step, callId: call.toolCallId, name: RUN_CODE, arguments: call.input ?? {} });
  if ('problem' in script) {
    const error: HarborErrorData = { code: 'BAD_REQUEST', message: script.problem };
    ctx.store.updateToolCall(rowId, { status: 'error', approval: 'not-needed', error, result: { content: [{ type: 'text', text: script.problem }], isError: true } });
    ctx.emit({ ...view, status: 'error', error, endedAt: ctx.now() });
    return { output: toolErrorOutput(script.problem) };
  }

  const run: { -readonly [K in keyof CodeRun]: CodeRun[K] } = { script: script.code, status: 'running', calls: [], logs: [], startedAt: view.startedAt };
  const card = new CardUpdates(() => ctx.emit({ ...view, code: { ...run, calls: [...run.calls], logs: [...run.logs] } }));
  card.now();
  ctx.store.updateToolCall(rowId, { status: 'running', approval: 'not-needed' });
  const consent = watchConsent(ctx, run, () => card.now());

  let outcome: CodeRunOutcome;
  try {
    outcome = await code.sandbox.run({
      code: script.code,
      api: code.api,
      limits: code.limits,
      signal: ctx.signal,
      broker: {
        callTool: (server, tool, args, { signal }) =>
          ctx.host.callTool(server, tool, args, {
            signal,
            consent: { conversationId: ctx.conversationId, approveOnce: ctx.approveOnce, requester: { kind: 'code', conversationId: ctx.conversationId, toolCallId: call.toolCallId } },
            // A server's question during a brokered call is shown with this script's card.
            origin: { conversationId: ctx.conversationId, turnId: ctx.turnId, toolCallId: call.toolCallId },
          }),
      },
      onEvent: (event) => {
        apply(run, event, consent.approvals);
        if (event.type === 'call') card.now();
        else card.soon();
      },
    });
  } finally {
    card.dispose();
    await consent.dispose();
  }

  run.calls = outcome.calls.map((c) => finalApproval(withApproval(c, consent.approvals), ctx.approveOnce));
  run.logs = [...outcome.logs];
  run.status = outcome.ok ? 'done' : 'error';
  run.endedAt = ctx.now();
  if (outcome.ok) run.result = outcome.result ?? null;
  if (outcome.error) run.error = outcome.error;

  const output = runCodeOutput(outcome);
  const text = output.type === 'text' || output.type === 'error-text' ? output.value : '';
  const translated = translateToolResult({ content: [{ type: 'text', text }], isError: !outcome.ok }, { imageParts: false, capBytes: ctx.resultCapBytes });
  const result = { content: [{ type: 'text', text }], isError: !outcome.ok, ...(translated.truncatedBytes > 0 ? { truncatedBytes: translated.truncatedBytes } : {}) };
  const stop = turnStop(outcome, ctx.signal.aborted);
  const final: ChatToolCall = {
    ...view,
    status: stop ? 'error' : 'done',
    endedAt: run.endedAt,
    result,
    code: run,
    ...(stop ? { error: stop.error.toData() } : {}),
  };
  ctx.store.updateToolCall(rowId, { status: final.status, approval: 'not-needed', result: { ...result, structuredContent: run }, ...(stop ? { error: stop.error.toData() } : {}) });
  ctx.emit(final);
  return { output: translated.output, ...(stop ? { stopTurn: stop } : {}) };
}

/** A Stop, or consent no one can give here, ends the turn as it would after a direct call. */
function turnStop(outcome: CodeRunOutcome, aborted: boolean): ToolRunOutcome['stopTurn'] {
  const code = outcome.error?.code;
  if (aborted) return { status: 'stopped', error: new HarborError('CANCELLED', 'Stopped by the person before the script finished.') };
  if (code === 'CONSENT_REQUIRED' || code === 'CONSENT_STALE') return { status: 'consentRequired', error: new HarborError(code, outcome.error!.message) };
  return undefined;
}

function withApproval(call: CodeCall, approvals: ReadonlyMap<number, string>): CodeCall {
  const approval = approvals.get(call.id);
  return approval ? { ...call, approval } : call;
}

/** How consent went for a call that was never asked about: allowed by the settings, or by --yes; refused by a setting. */
function finalApproval(call: CodeCall, approveOnce: boolean): CodeCall {
  if (call.approval) return call;
  if (call.error?.code === 'CONSENT_DENIED') return { ...call, approval: 'denied' };
  if (call.error?.code === 'CONSENT_REQUIRED' || call.error?.code === 'CONSENT_STALE') return { ...call, approval: 'required' };
  return call.status === 'done' ? { ...call, approval: approveOnce ? 'approved-once' : 'approved' } : call;
}

function apply(run: { calls: CodeCall[]; logs: CodeRun['logs'] }, event: CodeRunEvent, approvals: ReadonlyMap<number, string>): void {
  if (event.type === 'log') {
    run.logs = [...run.logs, event.log];
    return;
  }
  const next = withApproval(event.call, approvals);
  const index = run.calls.findIndex((c) => c.id === next.id);
  // The card shows the newest calls, as many as the run keeps.
  run.calls = index < 0 ? [...run.calls, next].slice(-CALL_WINDOW) : run.calls.map((c, i) => (i === index ? next : c));
}

/**
 * A brokered call's consent, shown on its line of the card: the gate's consent.request for this
 * conversation, server and tool marks the oldest such call still running as awaiting consent;
 * the answer records how it went ("approved-once", "denied", …).
 */
function watchConsent(ctx: ToolRunContext, run: { calls: CodeCall[] }, changed: () => void): Disposable & { readonly approvals: ReadonlyMap<number, string> } {
  const approvals = new Map<number, string>();
  const asking = new Map<string, number>();
  // A request answered while it is still being announced (a synchronous responder) resolves
  // before this sees it: remember such answers, so the order of listeners does not matter.
  const answeredEarly = new Map<string, ConsentChoice>();
  const settle = (callId: number, decision: ConsentChoice) => {
    approvals.set(callId, decision === 'deny' ? 'denied' : `approved-${decision}`);
    run.calls = run.calls.map((c) => (c.id === callId ? { ...c, approval: approvals.get(callId)!, ...(c.status === 'awaiting-consent' ? { status: 'running' as const } : {}) } : c));
    changed();
  };
  const onRequest = ctx.host.events.onEvent('consent.request', (request) => {
    if (request.kind !== 'tool' || request.conversationId !== ctx.conversationId) return;
    const waiting = run.calls.find((c) => c.status === 'running' && c.server === request.server && c.tool === request.tool?.name && !approvals.has(c.id) && ![...asking.values()].includes(c.id));
    if (!waiting) return;
    const early = answeredEarly.get(request.id);
    if (early) return settle(waiting.id, early);
    asking.set(request.id, waiting.id);
    run.calls = run.calls.map((c) => (c.id === waiting.id ? { ...c, status: 'awaiting-consent' } : c));
    changed();
  });
  const onResolved = ctx.host.events.onEvent('consent.resolved', (resolved) => {
    const callId = asking.get(resolved.id);
    if (callId === undefined) {
      answeredEarly.set(resolved.id, resolved.decision);
      return;
    }
    asking.delete(resolved.id);
    settle(callId, resolved.decision);
  });
  return {
    approvals,
    dispose: async () => {
      // A Stop while a dialog is open: close it as a denial, the call never ran.
      for (const requestId of asking.keys()) ctx.host.consent.respond(requestId, 'deny');
      await onRequest.dispose();
      await onResolved.dispose();
    },
  };
}

/** Sends the card now (a call changed) or soon (more lines), never more often than EMIT_EVERY_MS for lines. */
class CardUpdates {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly send: () => void) {}

  now(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.send();
  }

  soon(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.send();
    }, EMIT_EVERY_MS);
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}

/** search_tools hits in code mode carry how a script calls each tool, with its types. */
export function withScriptCalls<T extends { readonly name: string }>(hits: readonly T[], index: ToolIndex): (T & { call?: string })[] {
  return hits.map((hit) => {
    const target = index.resolve(hit.name);
    return target ? { ...hit, call: declareCall(target.server, target.tool) } : hit;
  });
}
