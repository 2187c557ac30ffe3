import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ChatToolCall, ConsentChoice, HarborErrorData } from '../../../preload/contract';
import { HarborError } from '../errors';
import { CALL_TOOL, SEARCH_TOOLS } from '../tools/meta-tools';
import { toolErrorOutput, translateToolResult, type ModelToolOutput } from '../tools/results';
import { DEFAULT_SEARCH_LIMIT, searchTurnTools } from '../tools/search';
import type { IndexedTool } from '../tools/tool-index';
import type { ModelToolCall } from './model-step';
import { untilAborted } from './abortable';
import { RUN_CODE } from '../code-mode/run-code-tool';
import { runCodeCall, withScriptCalls } from './run-code-call';
import type { ToolRunContext, ToolRunOutcome } from './tool-run';
import { LOAD_SKILL } from '../skills/skill-tool';
import { runSkillCall } from './turn-skills';

export type { CallProgress } from './tool-run';

/** What a call's arguments must be: a JSON object (or nothing). */
function asArguments(input: unknown): Record<string, unknown> | undefined | 'invalid' {
  if (input === undefined || input === null) return undefined;
  if (typeof input === 'object' && !Array.isArray(input)) return input as Record<string, unknown>;
  return 'invalid';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs one tool call of the model: routes the exposed name (or call_tool's name) to a server and
 * tool, goes through the Host's consent gate, forwards progress, and turns every failure into a
 * tool error the model can read — unknown tool, bad arguments, denied, timeout, server down.
 * Only a Stop or consent that cannot be asked ends the turn.
 */
export async function runToolCall(call: ModelToolCall, ctx: ToolRunContext): Promise<ToolRunOutcome> {
  if (call.toolName === RUN_CODE && ctx.tools.code) return runCodeCall(call, ctx, ctx.tools.code);
  if (call.toolName === LOAD_SKILL && ctx.tools.skills?.length) return runSkillCall(call, ctx);
  const view: { -readonly [K in keyof ChatToolCall]: ChatToolCall[K] } = {
    id: call.toolCallId,
    name: call.toolName,
    arguments: call.input ?? {},
    status: 'pending',
    startedAt: ctx.now(),
  };
  const rowId = ctx.store.insertToolCall(ctx.conversationId, {
    turnId: ctx.turnId,
    step: ctx.step,
    callId: call.toolCallId,
    name: call.toolName,
    arguments: call.input ?? {},
  });

  const fail = (error: HarborErrorData, output: ModelToolOutput, approval?: string): ToolRunOutcome => {
    view.status = 'error';
    view.error = error;
    view.endedAt = ctx.now();
    if (approval) view.approval = approval;
    view.result = { content: [{ type: 'text', text: error.message }], isError: true };
    ctx.store.updateToolCall(rowId, { status: 'error', error, result: view.result, ...(approval ? { approval } : {}) });
    ctx.emit({ ...view });
    return { output };
  };

  // search_tools runs inside Harbor: no server, no consent.
  if (ctx.tools.mode === 'search' && call.toolName === SEARCH_TOOLS) {
    const args = asArguments(call.input);
    const query = args && args !== 'invalid' && typeof args.query === 'string' ? args.query : '';
    const limit = args && args !== 'invalid' && typeof args.limit === 'number' ? args.limit : DEFAULT_SEARCH_LIMIT;
    const found = searchTurnTools(ctx.host.searchTools, ctx.tools.index, query, limit).map(({ score: _score, ...hit }) => hit);
    const hits = ctx.tools.code ? withScriptCalls(found, ctx.tools.index) : found;
    const next = ctx.tools.code?.only
      ? `Call them from a ${RUN_CODE} script, as "call" shows.`
      : `Call one with ${CALL_TOOL}({"name": <name>, "arguments": {...}})${ctx.tools.code ? `, or several from a ${RUN_CODE} script, as "call" shows` : ''}.`;
    const text = JSON.stringify(
      hits.length > 0
        ? { matches: hits, next }
        : { matches: [], next: 'No tool matched. Try other keywords (a verb and an object, e.g. "create issue").' },
    );
    view.tool = SEARCH_TOOLS;
    view.status = 'done';
    view.endedAt = ctx.now();
    view.result = { content: [{ type: 'text', text }], isError: false };
    ctx.store.updateToolCall(rowId, { status: 'done', tool: SEARCH_TOOLS, approval: 'not-needed', result: view.result });
    ctx.emit({ ...view });
    return { output: { type: 'text', value: text } };
  }

  // Route: call_tool(name, arguments) in search mode, else the exposed name itself (in search mode
  // too — a model that calls a found tool directly still reaches it, through the same gate).
  let target: IndexedTool | undefined;
  let input: unknown = call.input;
  if (ctx.tools.mode === 'search' && call.toolName === CALL_TOOL) {
    const args = asArguments(call.input);
    const name = args && args !== 'invalid' && typeof args.name === 'string' ? args.name : undefined;
    if (!name) {
      const message = `${CALL_TOOL} needs "name": the exact name ${SEARCH_TOOLS} returned.`;
      return fail({ code: 'BAD_REQUEST', message }, toolErrorOutput(message));
    }
    target = ctx.tools.index.resolve(name);
    input = args && args !== 'invalid' ? (args.arguments ?? {}) : {};
    view.arguments = input;
    if (!target) {
      const message = `Unknown tool "${name}". Find the exact name with ${SEARCH_TOOLS} first.`;
      return fail({ code: 'TOOL_NOT_FOUND', message }, toolErrorOutput(message));
    }
  } else {
    target = ctx.tools.index.resolve(call.toolName);
    if (!target) {
      const message =
        ctx.tools.mode === 'search'
          ? `Unknown tool "${call.toolName}". Find tools with ${SEARCH_TOOLS} and run them with ${CALL_TOOL}.`
          : `Unknown tool "${call.toolName}". Use one of the tools you were given, by its exact name.`;
      return fail({ code: 'TOOL_NOT_FOUND', message }, toolErrorOutput(message));
    }
    if (call.invalid && typeof call.input === 'string') {
      const message = `The arguments for "${call.toolName}" are not valid JSON: ${describe(call.error)}. Send a JSON object that matches the tool's input schema.`;
      view.server = target.server;
      view.tool = target.tool.name;
      return fail({ code: 'BAD_REQUEST', message }, toolErrorOutput(message));
    }
  }
  view.server = target.server;
  view.tool = target.tool.name;
  const args = asArguments(input);
  if (args === 'invalid') {
    const message = `The arguments for "${target.exposedName}" must be a JSON object.`;
    return fail({ code: 'BAD_REQUEST', message }, toolErrorOutput(message));
  }

  view.status = 'pending';
  ctx.store.updateToolCall(rowId, { status: 'pending', server: target.server, tool: target.tool.name });
  ctx.emit({ ...view });

  // Consent: the gate asks (app) through consent.request; show it on this call while it waits.
  let consentRequestId: string | undefined;
  let approval: string | undefined = ctx.approveOnce ? 'approved-once' : undefined;
  const server = target.server;
  const toolName = target.tool.name;
  // A request answered while it is still being announced (a synchronous responder) resolves
  // before this call sees it: remember resolutions so the order of listeners does not matter.
  const resolvedEarly = new Map<string, ConsentChoice>();
  // The wait for the person's answer is not run time: kept apart (waitedMs), so the card can say both.
  let askedAt: number | undefined;
  const settle = (decision: ConsentChoice, wasWaiting: boolean) => {
    approval = decision === 'deny' ? 'denied' : `approved-${decision}`;
    if (askedAt !== undefined) {
      view.waitedMs = (view.waitedMs ?? 0) + Math.max(0, ctx.now() - askedAt);
      askedAt = undefined;
    }
    if (decision !== 'deny' && wasWaiting) {
      view.status = 'running';
      ctx.store.updateToolCall(rowId, { status: 'running', ...(view.waitedMs !== undefined ? { waitedMs: view.waitedMs } : {}) });
      ctx.emit({ ...view });
    } else if (view.waitedMs !== undefined) {
      ctx.store.updateToolCall(rowId, { status: view.status, waitedMs: view.waitedMs });
    }
  };
  const onRequest = ctx.host.events.onEvent('consent.request', (request) => {
    if (request.kind !== 'tool' || request.server !== server || request.tool?.name !== toolName || request.conversationId !== ctx.conversationId) return;
    const early = resolvedEarly.get(request.id);
    if (early) return settle(early, false);
    consentRequestId = request.id;
    askedAt = ctx.now();
    view.status = 'awaiting-consent';
    ctx.store.updateToolCall(rowId, { status: 'awaiting-consent' });
    ctx.emit({ ...view });
  });
  const onResolved = ctx.host.events.onEvent('consent.resolved', (resolved) => {
    if (resolved.id !== consentRequestId) {
      resolvedEarly.set(resolved.id, resolved.decision);
      return;
    }
    consentRequestId = undefined;
    settle(resolved.decision, true);
  });

  view.status = 'running';
  ctx.store.updateToolCall(rowId, { status: 'running' });
  ctx.emit({ ...view });

  let result: CallToolResult;
  try {
    result = await untilAborted(
      ctx.host.callTool(server, toolName, args, {
        signal: ctx.signal,
        onProgress: (progress) => {
          if (view.status === 'done' || view.status === 'error') return; // a late notification
          view.status = 'progress';
          ctx.emit({ ...view }, progress);
        },
        consent: { conversationId: ctx.conversationId, approveOnce: ctx.approveOnce, requester: { kind: 'model', conversationId: ctx.conversationId, toolCallId: call.toolCallId } },
        // The server runs the call as a task: its card shows the task's status as it goes.
        task: {
          onUpdate: (task) => {
            if (view.status === 'done' || view.status === 'error') return;
            view.task = { taskId: task.taskId, status: task.status, ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}) };
            ctx.emit({ ...view });
          },
        },
        // A server's question during this call is shown with it, in this conversation.
        origin: { conversationId: ctx.conversationId, turnId: ctx.turnId, toolCallId: call.toolCallId },
      }),
      ctx.signal,
    );
  } catch (error) {
    // A Stop while the consent dialog is open: close it as a denial, the call never ran.
    if (consentRequestId) ctx.host.consent.respond(consentRequestId, 'deny');
    return failure(error, ctx, approval, fail, view.server);
  } finally {
    await onRequest.dispose();
    await onResolved.dispose();
  }

  const translated = translateToolResult(result, { imageParts: ctx.imageParts, capBytes: ctx.resultCapBytes });
  view.status = 'done';
  view.endedAt = ctx.now();
  view.approval = approval ?? 'approved';
  view.result = {
    content: result.content ?? [],
    ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    isError: result.isError === true,
    ...(translated.truncatedBytes > 0 ? { truncatedBytes: translated.truncatedBytes } : {}),
  };
  ctx.store.updateToolCall(rowId, { status: 'done', approval: view.approval, result: view.result });
  ctx.emit({ ...view });
  return { output: translated.output };
}

function failure(
  error: unknown,
  ctx: ToolRunContext,
  approval: string | undefined,
  fail: (error: HarborErrorData, output: ModelToolOutput, approval?: string) => ToolRunOutcome,
  server?: string,
): ToolRunOutcome {
  const harbor = error instanceof HarborError ? error : new HarborError('INTERNAL', describe(error));
  if (ctx.signal.aborted) {
    const stopped = new HarborError('CANCELLED', 'Stopped by the person before the tool finished.');
    fail(stopped.toData(), toolErrorOutput(stopped.message), approval);
    return { output: toolErrorOutput(stopped.message), stopTurn: { status: 'stopped', error: stopped } };
  }
  switch (harbor.code) {
    case 'CONSENT_DENIED':
      return fail(harbor.toData(), toolErrorOutput('The user denied this call.'), 'denied');
    case 'CONSENT_REQUIRED':
    case 'CONSENT_STALE': {
      const message = 'This call needs the person\'s consent, which cannot be asked here; the turn was stopped.';
      fail(harbor.toData(), toolErrorOutput(message), 'required');
      return { output: toolErrorOutput(message), stopTurn: { status: 'consentRequired', error: harbor } };
    }
    case 'AUTH_REQUIRED': {
      // The sign-in stopped working mid-conversation (expired, withdrawn): only the person can
      // fix it, so the turn stops and says how, instead of the model carrying on without the tool.
      const who = server ? `"${server}"` : 'the server';
      const signIn = new HarborError(
        'AUTH_REQUIRED',
        `Your sign-in to ${who} is no longer valid (it expired or was withdrawn). Sign in again — in the app: Sign in on ${who} in Servers; in a terminal: harbor login ${server ?? 'SERVER'} — then send your message again.`,
        harbor.message,
      );
      const message = 'This server needs the person to sign in again; the turn was stopped.';
      fail(signIn.toData(), toolErrorOutput(message), approval);
      return { output: toolErrorOutput(message), stopTurn: { status: 'error', error: signIn } };
    }
    default:
      return fail(harbor.toData(), toolErrorOutput(`The tool call failed (${harbor.code}): ${harbor.message}`), approval);
  }
}
