/**
 * Context cost per model turn: with 10 copies of server-everything (each offers what Harbor's
 * declared capabilities unlock: elicitation, tasks), how many tokens the tool
 * definitions of one model request take when every tool is exposed, against progressive discovery
 * (search_tools + call_tool). Both arms run a real chat turn through the Host against the scripted
 * OpenAI-compatible model, and count what the model was actually sent (o200k_base: name +
 * description + compact JSON of the parameters of each tool in the request). Target: the search
 * arm sends ≤ 10 % of the tokens of the full arm.
 */
import { join } from 'node:path';
import { loadTokenCounter, toolTokens, type TokenCounter } from '../main/host/tools/tokens';
import { startScriptedModel, type RecordedRequest } from '../test/fixtures/model/scripted-model';
import { ratioFigure, type Figure } from './result';
import { REPO, assertAllReady, createBenchHost, marker, nodeServer } from './support';

const EVERYTHING = join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

export interface ContextCostOptions {
  readonly copies: number;
}

interface Arm {
  readonly tools: number;
  readonly toolTokens: number;
  readonly systemTokens: number;
}

function measure(count: TokenCounter, request: RecordedRequest): Arm {
  return {
    tools: request.tools.length,
    toolTokens: request.tools.reduce((n, t) => n + toolTokens(count, { name: t.name, description: t.description, inputSchema: t.parameters }), 0),
    systemTokens: count(request.system),
  };
}

/** One chat turn with tool search forced on or off; returns what the model was sent and how many tools the servers listed. */
async function runArm(label: string, copies: number, toolSearch: 'on' | 'off'): Promise<{ request: RecordedRequest; listed: number }> {
  const model = await startScriptedModel({ script: [{ text: 'ok' }] });
  const mark = marker(`context-${label}`);
  const servers = Object.fromEntries(Array.from({ length: copies }, (_, i) => [`everything${i + 1}`, nodeServer(EVERYTHING, ['stdio'], mark)]));
  const { host, dispose } = await createBenchHost(`context-${label}`, servers, { registry: { model: model.modelConfig(), chat: { toolSearch, codeMode: 'off' } } });
  try {
    const turn = await host.chat.send({ text: 'What can you do?', approveOnce: true });
    const outcome = await turn.done;
    if (outcome.status !== 'completed') throw new Error(`the ${label} turn ended ${outcome.status}: ${outcome.note ?? ''}`);
    assertAllReady(host);
    const request = model.requests[0];
    if (!request) throw new Error('the model got no request');
    return { request, listed: host.servers.list().reduce((n, s) => n + s.counts.tools, 0) };
  } finally {
    await dispose();
    await model.close();
  }
}

export async function benchContextCost(options: ContextCostOptions): Promise<Figure> {
  const count = await loadTokenCounter();
  const fullArm = await runArm('full', options.copies, 'off');
  const full = measure(count, fullArm.request);
  const search = measure(count, (await runArm('search', options.copies, 'on')).request);
  const ratio = search.toolTokens / full.toolTokens;
  const problems: string[] = [];
  if (full.tools !== fullArm.listed) problems.push(`the servers listed ${fullArm.listed} tools, the model got ${full.tools}`);
  const withSystem = (search.toolTokens + search.systemTokens) / (full.toolTokens + full.systemTokens);
  return ratioFigure({
    name: 'context cost per turn',
    measured: `tool search ${search.toolTokens} tokens (${search.tools} tools), all tools ${full.toolTokens} tokens (${full.tools} tools)`,
    value: ratio,
    target: 0.1,
    problems,
    notes: [
      `${options.copies} copies of server-everything; tokens of the tool definitions in one model request (o200k_base)`,
      `system prompt: ${full.systemTokens} tokens with all tools, ${search.systemTokens} with tool search (identical server instructions share one fence)`,
      `whole request prefix (tools + system): ${full.toolTokens + full.systemTokens} vs ${search.toolTokens + search.systemTokens} tokens, ratio ${withSystem.toFixed(3)}`,
    ],
  });
}
