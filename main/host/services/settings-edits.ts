import { DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_STEPS, DEFAULT_TOOL_SEARCH_THRESHOLD } from '../chat/settings';
import { HarborError } from '../errors';
import { registryErrorMap } from '../registry/messages';
import { ChatConfig, ModelConfig, Toolsets, type RegistryFile } from '../registry/schema';
import { formatIssues } from '../registry/store';
import { DEFAULT_RESULT_CAP_BYTES } from '../tools/results';

/**
 * The edits the app's Settings view makes to the registry's "model" and "chat" entries, as pure
 * functions of the file (the settings service saves the result like every other edit), and the
 * view of those settings the app shows, with the chat's defaults filled in.
 */

/** The environment variable each provider's SDK reads when no key is configured. */
export const PROVIDER_KEY_ENV: Readonly<Record<ModelConfig['provider'], string | undefined>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  'openai-compatible': undefined,
};

/** The keychain name the model's API key is stored under, per provider. */
export function modelKeySecretName(provider: ModelConfig['provider']): string {
  return `model-${provider}-api-key`;
}

export interface ModelInput {
  readonly provider: ModelConfig['provider'];
  readonly model: string;
  readonly baseURL?: string;
  readonly contextWindow?: number;
  /**
   * "keep": leave "apiKey" as it is; "env": remove it (the provider's environment variable is
   * used); "secret": reference the keychain secret `secret` (stored by the caller first).
   */
  readonly apiKey: { readonly kind: 'keep' } | { readonly kind: 'env' } | { readonly kind: 'secret'; readonly secret: string };
}

/** The registry with its "model" entry set (unknown fields of the old entry kept) or removed (null). */
export function withModel(file: RegistryFile, input: ModelInput | null): RegistryFile {
  if (input === null) {
    const { model: _removed, ...rest } = file;
    return rest as RegistryFile;
  }
  const current: Record<string, unknown> = { ...(file.model ?? {}) };
  delete current.baseURL;
  delete current.contextWindow;
  const next: Record<string, unknown> = {
    ...current,
    provider: input.provider,
    model: input.model.trim(),
    ...(input.baseURL?.trim() ? { baseURL: input.baseURL.trim() } : {}),
    ...(input.contextWindow !== undefined ? { contextWindow: input.contextWindow } : {}),
  };
  if (input.apiKey.kind === 'env') delete next.apiKey;
  else if (input.apiKey.kind === 'secret') next.apiKey = `\${secret:${input.apiKey.secret}}`;
  const parsed = ModelConfig.safeParse(next, { error: registryErrorMap });
  if (!parsed.success) {
    const lines = formatIssues(parsed.error.issues.map((i) => ({ ...i, path: ['model', ...i.path] })));
    throw new HarborError('CONFIG_INVALID', `The model settings have problems: ${lines.join('; ')}.`, lines.join('\n'));
  }
  return { ...file, model: parsed.data };
}

export interface ChatInput {
  readonly maxSteps?: number;
  readonly resultCapBytes?: number;
  readonly toolSearch?: 'auto' | 'on' | 'off';
  readonly toolSearchThreshold?: number;
  readonly codeMode?: 'auto' | 'on' | 'off';
}

const CHAT_KEYS = ['maxSteps', 'resultCapBytes', 'toolSearch', 'toolSearchThreshold', 'codeMode'] as const;

/** The registry with the chat settings replaced: a field left out goes back to its default. */
export function withChat(file: RegistryFile, input: ChatInput): RegistryFile {
  const next: Record<string, unknown> = { ...(file.chat ?? {}) };
  for (const key of CHAT_KEYS) {
    if (input[key] === undefined) delete next[key];
    else next[key] = input[key];
  }
  const parsed = ChatConfig.safeParse(next, { error: registryErrorMap });
  if (!parsed.success) {
    const lines = formatIssues(parsed.error.issues.map((i) => ({ ...i, path: ['chat', ...i.path] })));
    throw new HarborError('CONFIG_INVALID', `The chat settings have problems: ${lines.join('; ')}.`, lines.join('\n'));
  }
  if (Object.keys(parsed.data).length === 0) {
    const { chat: _removed, ...rest } = file;
    return rest as RegistryFile;
  }
  return { ...file, chat: parsed.data };
}

/**
 * The registry with the toolset `name` set to `entries` ("SERVER/TOOL", "SERVER/*"), or removed
 * (null). Checked against the registry's schema first: a bad entry is refused, naming it.
 */
export function withToolset(file: RegistryFile, name: string, entries: readonly string[] | null): RegistryFile {
  const next: Record<string, string[]> = { ...(file.toolsets ?? {}) };
  if (entries === null) {
    if (!Object.hasOwn(next, name)) throw new HarborError('BAD_REQUEST', `There is no toolset named "${name}".`);
    delete next[name];
  } else {
    next[name] = [...new Set(entries.map((e) => e.trim()).filter(Boolean))];
  }
  const parsed = Toolsets.safeParse(next, { error: registryErrorMap });
  if (!parsed.success) {
    const lines = formatIssues(parsed.error.issues.map((i) => ({ ...i, path: ['toolsets', ...i.path] })));
    throw new HarborError('CONFIG_INVALID', `The toolset "${name}" has problems: ${lines.join('; ')}.`, lines.join('\n'));
  }
  if (Object.keys(parsed.data).length === 0) {
    const { toolsets: _removed, ...rest } = file;
    return rest as RegistryFile;
  }
  return { ...file, toolsets: parsed.data };
}

/** How the model's key is configured, without ever carrying its value. */
export type ApiKeyView =
  | { readonly kind: 'secret'; readonly secret: string; readonly set?: boolean }
  | { readonly kind: 'env'; readonly variable?: string }
  /** A key written into the file in plain text: shown only as "in the file", so it can be moved. */
  | { readonly kind: 'literal' };

export interface SettingsView {
  readonly model?: {
    readonly provider: ModelConfig['provider'];
    readonly model: string;
    readonly baseURL?: string;
    readonly contextWindow?: number;
    readonly apiKey: ApiKeyView;
  };
  readonly chat: ChatInput;
  /** The registry's toolsets: name → "SERVER/TOOL" and "SERVER/*" entries. */
  readonly toolsets: Record<string, string[]>;
  readonly defaults: {
    readonly maxSteps: number;
    readonly resultCapBytes: number;
    readonly toolSearch: 'auto';
    readonly toolSearchThreshold: number;
    readonly contextWindow: number;
    /** Per-request timeout of a server's calls when it sets no timeoutMs. */
    readonly requestTimeoutMs: number;
  };
}

/** The settings as the app shows them. `secretNames` (when the keychain answered) says which keys are set. */
export function settingsView(file: RegistryFile | undefined, secretNames: ReadonlySet<string> | undefined): SettingsView {
  const model = file?.model;
  const chat = file?.chat ?? {};
  let apiKey: ApiKeyView;
  const ref = model?.apiKey === undefined ? undefined : /^\$\{secret:([^}]+)\}$/.exec(model.apiKey);
  if (!model || model.apiKey === undefined || model.apiKey === '') {
    const variable = model ? PROVIDER_KEY_ENV[model.provider] : undefined;
    apiKey = { kind: 'env', ...(variable ? { variable } : {}) };
  } else if (ref) {
    apiKey = { kind: 'secret', secret: ref[1]!, ...(secretNames ? { set: secretNames.has(ref[1]!) } : {}) };
  } else {
    apiKey = { kind: 'literal' };
  }
  return {
    ...(model
      ? {
          model: {
            provider: model.provider,
            model: model.model,
            ...(model.baseURL ? { baseURL: model.baseURL } : {}),
            ...(model.contextWindow !== undefined ? { contextWindow: model.contextWindow } : {}),
            apiKey,
          },
        }
      : {}),
    chat: Object.fromEntries(CHAT_KEYS.filter((k) => chat[k] !== undefined).map((k) => [k, chat[k]])) as ChatInput,
    toolsets: Object.fromEntries(Object.entries(file?.toolsets ?? {}).map(([name, entries]) => [name, [...entries]])),
    defaults: {
      maxSteps: DEFAULT_MAX_STEPS,
      resultCapBytes: DEFAULT_RESULT_CAP_BYTES,
      toolSearch: 'auto',
      toolSearchThreshold: DEFAULT_TOOL_SEARCH_THRESHOLD,
      contextWindow: DEFAULT_CONTEXT_WINDOW,
      requestTimeoutMs: 60_000,
    },
  };
}
