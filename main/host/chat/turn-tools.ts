import { apiShapeOf, declareApi, describeBesideTools } from '../code-mode/declarations';
import { runCodeDefinition } from '../code-mode/run-code-tool';
import type { CodeSandbox } from '../code-mode/sandbox';
import type { HarborError } from '../errors';
import { META_TOOLS, SEARCH_TOOLS } from '../tools/meta-tools';
import { gatherOffer } from '../tools/offer';
import type { ToolIndex } from '../tools/tool-index';
import type { Toolset } from '../tools/toolsets';
import type { ChatHost } from './chat-host';
import type { OfferedTool } from './model-step';
import type { TurnCode } from './turn-code';
import type { ChatSettings } from './settings';
import type { PromptServer } from './system-prompt';
import type { IndexedSkill } from '../skills/skill-tool';

export type ToolMode = 'direct' | 'search';

/** The tools of one turn: what the model is offered and where each call goes. */
export interface TurnTools {
  readonly mode: ToolMode;
  readonly index: ToolIndex;
  readonly offered: readonly OfferedTool[];
  readonly servers: readonly PromptServer[];
  readonly unavailable: readonly { name: string; message: string; error: HarborError }[];
  /** Tokens of every enabled tool definition, as exposing them all would send. */
  readonly definitionTokens: number;
  /** A launch that needs consent no one can give here (headless): the turn cannot start. */
  readonly consentNeeded?: HarborError;
  /** Code mode: run_code is offered, and its scripts run in this sandbox. */
  readonly code?: TurnCode;
  /** The skills index (turn-skills.ts): load_skill is offered when it is not empty. */
  readonly skills?: readonly IndexedSkill[];
}

/** Offered definitions when every tool is exposed. */
export function directOffer(index: ToolIndex): OfferedTool[] {
  return index.tools.map((t) => ({ name: t.exposedName, description: t.description, inputSchema: t.inputSchema }));
}

/** Offered definitions in progressive discovery: the two constant meta-tools. */
export function searchOffer(): OfferedTool[] {
  return META_TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}

/**
 * The tools of one turn, from the one gatherer (tools/offer.ts): every enabled server connected if
 * needed, its tools and instructions; a server that cannot be reached is left out and named in the
 * system prompt; a toolset leaves out what it does not name (search_tools and run_code see only
 * what the index holds). The mode is sticky: once a conversation uses search it keeps the same
 * two tools, so the tool array never changes under it.
 */
export async function gatherTurnTools(host: ChatHost, settings: ChatSettings, previousMode: ToolMode | undefined, sandbox?: CodeSandbox, toolset?: Toolset): Promise<TurnTools> {
  const gathered = await gatherOffer(host, {
    disabledTools: (server) => settings.disabledTools(server),
    ...(toolset ? { toolset } : {}),
    budget: { toolSearch: settings.toolSearch, threshold: settings.toolSearchThreshold, contextWindow: settings.contextWindow, ...(previousMode ? { previousMode } : {}) },
  });
  const { index, mode, definitionTokens, consentNeeded } = gathered;
  const servers: PromptServer[] = gathered.ready.map((s) => ({ name: s.name, tools: s.reachable, ...(s.instructions ? { instructions: s.instructions } : {}) }));
  const unavailable = gathered.unavailable.map((u) => ({ name: u.server, message: `${u.error.code}: ${u.error.message}`, error: u.error }));
  const code = sandbox && settings.codeMode !== 'off' && index.size > 0 ? codeOffer(index, settings, sandbox) : undefined;
  let offered = mode === 'search' ? searchOffer() : directOffer(index);
  if (code) {
    // Beside the tools ("auto"), their arguments are already in their definitions: run_code says
    // only how to call them from a script and what they return, not every declaration again.
    const runCode = runCodeDefinition({
      limits: code.limits,
      ...(mode === 'search' ? { searchTool: SEARCH_TOOLS } : code.only ? { declarations: declareApi(index.tools) } : { besideTools: describeBesideTools(index.tools) }),
    });
    // "on": one script tool instead of the tools (in search mode, beside search_tools to find them).
    if (code.only) offered = mode === 'search' ? offered.filter((t) => t.name === SEARCH_TOOLS) : [];
    offered = [...offered, runCode];
  }
  return {
    mode,
    index,
    offered,
    servers,
    unavailable,
    definitionTokens,
    ...(consentNeeded ? { consentNeeded } : {}),
    ...(code ? { code } : {}),
  };
}

/** Code mode for this turn; the sandbox starts its worker now, so the first script does not wait for it. */
function codeOffer(index: ToolIndex, settings: ChatSettings, sandbox: CodeSandbox): TurnCode {
  sandbox.prewarm();
  return { sandbox, api: apiShapeOf(index.tools), limits: settings.codeLimits, only: settings.codeMode === 'on' };
}
