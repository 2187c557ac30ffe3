import { apiShapeOf, declareApi, describeBesideTools } from '../code-mode/declarations';
import { runCodeDefinition } from '../code-mode/run-code-tool';
import type { CodeSandbox } from '../code-mode/sandbox';
import { asHarborError, type HarborError } from '../errors';
import { META_TOOLS, SEARCH_TOOLS } from '../tools/meta-tools';
import { ToolIndex, type ServerTools } from '../tools/tool-index';
import { loadTokenCounter, toolTokens } from '../tools/tokens';
import type { ChatHost } from './chat-host';
import type { OfferedTool } from './model-step';
import type { TurnCode } from './turn-code';
import { useToolSearch, type ChatSettings } from './settings';
import type { PromptServer } from './system-prompt';
import type { IndexedSkill } from '../skills/skill-tool';

export type ToolMode = 'direct' | 'search';

/** The tools of one turn: what the model is offered and where each call goes. */
export interface TurnTools {
  readonly mode: ToolMode;
  readonly index: ToolIndex;
  readonly offered: readonly OfferedTool[];
  readonly servers: readonly PromptServer[];
  readonly unavailable: readonly { name: string; message: string }[];
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
 * Connects (if needed) every enabled server and collects its tools and instructions. A server that
 * cannot be reached is left out and named in the system prompt. The mode is sticky: once a
 * conversation uses search it keeps the same two tools, so the tool array never changes under it.
 */
export async function gatherTurnTools(host: ChatHost, settings: ChatSettings, previousMode: ToolMode | undefined, sandbox?: CodeSandbox): Promise<TurnTools> {
  const enabled = host.listServers().filter((s) => s.enabled);
  const results = await Promise.all(
    enabled.map(async (s) => {
      try {
        const [catalog, instructions] = await Promise.all([host.catalog(s.name), host.instructions(s.name)]);
        return { ok: true as const, name: s.name, catalog, instructions };
      } catch (error) {
        return {
          ok: false as const,
          name: s.name,
          error: asHarborError(error),
        };
      }
    }),
  );
  const serverTools: ServerTools[] = [];
  const servers: PromptServer[] = [];
  const unavailable: { name: string; message: string }[] = [];
  let consentNeeded: HarborError | undefined;
  for (const r of results) {
    if (!r.ok) {
      if (r.error.code === 'CONSENT_REQUIRED' || r.error.code === 'CONSENT_STALE') consentNeeded ??= r.error;
      unavailable.push({ name: r.name, message: `${r.error.code}: ${r.error.message}` });
      continue;
    }
    const disabled = settings.disabledTools(r.name);
    serverTools.push({ server: r.name, tools: r.catalog.tools, disabled });
    servers.push({
      name: r.name,
      tools: r.catalog.tools.filter((t) => !disabled.has(t.name)).length,
      ...(r.instructions ? { instructions: r.instructions } : {}),
    });
  }
  const index = ToolIndex.build(serverTools);
  const direct = directOffer(index);
  const count = await loadTokenCounter();
  const definitionTokens = direct.reduce((sum, t) => sum + toolTokens(count, t), 0);
  const mode: ToolMode =
    settings.toolSearch !== 'off' && (previousMode === 'search' || useToolSearch(settings, definitionTokens)) ? 'search' : 'direct';
  const code = sandbox && settings.codeMode !== 'off' && index.size > 0 ? codeOffer(index, settings, sandbox) : undefined;
  let offered = mode === 'search' ? searchOffer() : direct;
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
