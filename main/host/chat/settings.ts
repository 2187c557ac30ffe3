import { resolveCodeLimits, type CodeLimits } from '../code-mode/limits';
import type { ChatConfig, ModelConfig, RegistryFile, ServerConfig } from '../registry/schema';
import { DEFAULT_RESULT_CAP_BYTES } from '../tools/results';

export type ToolSearchMode = 'auto' | 'on' | 'off';
export type CodeMode = 'auto' | 'on' | 'off';

/** The chat loop's settings with every default filled in. */
export interface ChatSettings {
  readonly model?: ModelConfig;
  /** Why the configured `"model"` cannot be used (no `model` then): chat says this instead of "no model". */
  readonly modelProblem?: string;
  readonly maxSteps: number;
  readonly resultCapBytes: number;
  readonly toolSearch: ToolSearchMode;
  /** Fraction of the context window the tool definitions may take before search replaces them. */
  readonly toolSearchThreshold: number;
  readonly contextWindow: number;
  /** Whether the model gets run_code: instead of the tools ("on"), beside them ("auto"), or not ("off"). */
  readonly codeMode: CodeMode;
  readonly codeLimits: CodeLimits;
  /** Tools of a server the person turned off. */
  disabledTools(server: string): ReadonlySet<string>;
  /** The registry's named toolsets: "SERVER/TOOL" and "SERVER/*" entries. */
  readonly toolsets: Readonly<Record<string, readonly string[]>>;
}

export const DEFAULT_MAX_STEPS = 25;
export const DEFAULT_CONTEXT_WINDOW = 128_000;
export const DEFAULT_TOOL_SEARCH_THRESHOLD = 0.05;
export const DEFAULT_CODE_MODE: CodeMode = 'auto';

export function resolveChatSettings(
  file: Pick<RegistryFile, 'model' | 'chat' | 'toolsets'> | undefined,
  servers: ReadonlyMap<string, ServerConfig> = new Map(),
  modelProblems: readonly string[] = [],
): ChatSettings {
  const chat: ChatConfig = file?.chat ?? {};
  const model = modelProblems.length > 0 ? undefined : file?.model;
  return {
    ...(model ? { model } : {}),
    ...(modelProblems.length > 0 ? { modelProblem: describeModelProblems(modelProblems) } : {}),
    maxSteps: chat.maxSteps ?? DEFAULT_MAX_STEPS,
    resultCapBytes: chat.resultCapBytes ?? DEFAULT_RESULT_CAP_BYTES,
    toolSearch: chat.toolSearch ?? 'auto',
    toolSearchThreshold: chat.toolSearchThreshold ?? DEFAULT_TOOL_SEARCH_THRESHOLD,
    contextWindow: model?.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
    codeMode: chat.codeMode ?? DEFAULT_CODE_MODE,
    codeLimits: resolveCodeLimits(chat.codeLimits),
    disabledTools: (server) => new Set(servers.get(server)?.disabledTools ?? []),
    toolsets: file?.toolsets ?? {},
  };
}

/** Whether the model gets search_tools/call_tool instead of every tool definition. */
export function useToolSearch(settings: ChatSettings, definitionTokens: number): boolean {
  if (settings.toolSearch === 'on') return true;
  if (settings.toolSearch === 'off') return false;
  return definitionTokens > settings.toolSearchThreshold * settings.contextWindow;
}

/** The one message chat and sampling give for a `"model"` entry that cannot be used. */
export function describeModelProblems(problems: readonly string[]): string {
  return `The "model" entry in harbor.json cannot be used:\n${problems.map((p) => `  ${p}`).join('\n')}\nFix it in Settings › Model (or in the file); everything but chat and sampling works meanwhile.`;
}
