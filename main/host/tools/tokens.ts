/**
 * Token accounting with the o200k_base encoding: what each tool definition and each server's
 * instructions cost in the model's context. The encoding's tables take most of a second to load,
 * so they are loaded on first use, never at startup. The build bundles this one encoding into a chunk
 * of its own (gpt-tokenizer is a devDependency): the package's other encodings never ship.
 */
export type TokenCounter = (text: string) => number;

let loading: Promise<TokenCounter> | undefined;

/** The o200k_base counter (loaded once). Special-token text such as "<|endoftext|>" counts as plain text. */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then(({ countTokens }) => {
    // A tool description is untrusted text: a special token in it is just characters to count.
    const noSpecial = { disallowedSpecial: new Set<string>() };
    return (text: string) => (text ? countTokens(text, noSpecial) : 0);
  });
  return loading;
}

/** The parts of a tool definition the model is sent. */
export interface ToolDefinitionText {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema?: unknown;
}

/** A tool's cost: tokens of its name + description + compact JSON of its input schema. */
export function toolTokens(count: TokenCounter, tool: ToolDefinitionText): number {
  return count(tool.name) + count(tool.description ?? '') + count(JSON.stringify(tool.inputSchema ?? {}));
}

export interface ServerTokenCost {
  /** Sum over the server's enabled tools. */
  readonly toolTokens: number;
  readonly instructionTokens: number;
  /** Per tool name, every tool (enabled or not). */
  readonly perTool: ReadonlyMap<string, number>;
}

export function serverTokenCost(
  count: TokenCounter,
  tools: readonly ToolDefinitionText[],
  instructions: string | undefined,
  disabled: ReadonlySet<string> = new Set(),
): ServerTokenCost {
  const perTool = new Map<string, number>();
  let sum = 0;
  for (const tool of tools) {
    const cost = toolTokens(count, tool);
    perTool.set(tool.name, cost);
    if (!disabled.has(tool.name)) sum += cost;
  }
  return { toolTokens: sum, instructionTokens: count(instructions ?? ''), perTool };
}
