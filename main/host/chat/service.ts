import type { ChatContext, ChatStatus, ChatToolResult, Conversation, ConversationSummary, FileUpload } from '../../../preload/contract';
import type { CodeSandbox } from '../code-mode/sandbox';
import { HarborError } from '../errors';
import type { Disposable } from '../lifecycle';
import type { ChatHost } from './chat-host';
import { withAppContext } from './app-context';
import { readAttachments } from './attachments';
import { measureContext } from './context';
import { untilAborted } from './abortable';
import { exportConversation, type ExportedConversation } from './export';
import { listCompatibleModels } from './model-list';
import { detectOllama, ollamaUrlFromEnv, type OllamaOffer } from './ollama';
import { createLanguageModel, modelTakesImages, type ResolvedModel, type SecretResolver } from './providers';
import type { ChatSettings } from './settings';
import type { ConversationStore, StartTurnOptions, UserPart } from './conversations/store';
import { fitHistoryToModel, prepareFiles } from './files';
import { buildSystemPrompt } from './system-prompt';
import { runTurn, type TurnEvent, type TurnOutcome } from './turn';
import { gatherTurnTools } from './turn-tools';
import { withSkills } from './turn-skills';
import { resolveToolset, type Toolset } from '../tools/toolsets';
import { gatherOffer, type ToolVerdict } from '../tools/offer';
import { UsedServers } from './turn-missing';

export interface ChatServiceDeps {
  readonly host: ChatHost;
  /** The conversations (in the data dir). Its owner disposes it after the chat, so running turns finish writing. */
  readonly store: ConversationStore;
  /** The registry file, named in "how to add a model". */
  readonly configPath: string;
  /** Current settings from the registry (throws when the registry is invalid). */
  readonly settings: () => ChatSettings;
  readonly resolveSecret?: SecretResolver;
  /** Where to look for a local Ollama (default: OLLAMA_HOST, else http://127.0.0.1:11434). */
  readonly ollamaUrl?: string;
  /** Where run_code's scripts run (code mode); without one the model is never offered run_code. */
  readonly codeSandbox?: CodeSandbox;
  readonly now?: () => number;
}

export interface SendOptions {
  /** An existing conversation (id or unique prefix); a new one when absent. */
  readonly conversationId?: string;
  readonly text: string;
  /** Resources the person attached: read here (before the turn starts) and added to the message. */
  readonly attachments?: readonly { server: string; uri: string }[];
  /** Files from the person's computer (images, text files), checked before anything is stored. */
  readonly files?: readonly FileUpload[];
  /** Edit and resend: the turn whose message this one replaces, as a new branch beside it (needs conversationId). */
  readonly editOf?: string;
  /** `--yes`: approve this turn's tool calls (and the server launches they need) up front. */
  readonly approveOnce?: boolean;
  /** Limits the conversation to this toolset from now on (remembered with it); null: every tool again. */
  readonly toolset?: string | null;
  /** The caller's own abort (CLI Ctrl-C); `stop()` works either way. */
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: TurnEvent) => void;
}

/** How a turn runs once its message is stored. */
type RunOptions = Pick<SendOptions, 'approveOnce' | 'signal' | 'onEvent'>;

export interface StartedTurn {
  readonly conversationId: string;
  readonly turnId: string;
  /** Settles when the turn ends; never rejects (failures are an outcome with status "error"). */
  readonly done: Promise<TurnOutcome>;
}

interface RunningTurn {
  readonly turnId: string;
  readonly controller: AbortController;
  done?: Promise<TurnOutcome>;
}

/**
 * The chat: starts turns (one at a time per conversation), stops them, keeps conversations, and
 * reports everything as `chat.*` Host events. Owned by the Host; `dispose()` stops running turns
 * (cancelling their tool calls) and waits for their last writes.
 */
export class ChatService implements Disposable {
  private readonly store: ConversationStore;
  private readonly running = new Map<string, RunningTurn>();
  private readonly now: () => number;
  private disposed = false;
  /** Which servers each conversation used, so a turn can say which are missing. */
  private readonly used: UsedServers;

  constructor(private readonly deps: ChatServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.store = deps.store;
    this.used = new UsedServers(this.store);
  }

  // ------------------------------------------------------------------------------------------
  // Model status

  async status(): Promise<ChatStatus> {
    const settings = this.deps.settings();
    if (settings.model) {
      const models = settings.model.provider === 'openai-compatible' && settings.model.baseURL ? await listCompatibleModels(settings.model.baseURL) : [];
      return {
        configured: true,
        model: { provider: settings.model.provider, model: settings.model.model },
        ...(models.length ? { models } : {}),
        images: modelTakesImages(settings.model),
      };
    }
    const ollama = await detectOllama(this.deps.ollamaUrl ?? ollamaUrlFromEnv());
    return {
      configured: false,
      help: this.notConfiguredHelp(ollama),
      ...(ollama ? { ollama: { url: ollama.url, models: [...ollama.models], config: { ...ollama.config } } } : {}),
    };
  }

  /** The context meter: what the tool definitions of the servers that are ready cost now, and how a turn of this conversation (or a new one) spends its budget. */
  async context(conversationId?: string): Promise<ChatContext> {
    const history = conversationId ? fitHistoryToModel(await this.store.history(conversationId), true) : [];
    return measureContext(this.deps.host, this.deps.settings(), history);
  }

  private notConfiguredHelp(ollama: OllamaOffer | undefined): string {
    const lines = [
      `No chat model is configured. Add a "model" entry to ${this.deps.configPath}, for example:`,
      '  "model": {"provider": "anthropic", "model": "claude-sonnet-4-5", "apiKey": "${secret:anthropic}"}',
      'Providers: "anthropic", "openai", or "openai-compatible" with "baseURL" (Ollama, LM Studio, vLLM…).',
      'Without a model Harbor still works as a client: tools, resources and prompts can be used by hand.',
    ];
    if (ollama) {
      lines.push(
        `A local Ollama answered at ${ollama.url}${ollama.models.length ? ` with ${ollama.models.join(', ')}` : ''}. To use it:`,
        `  "model": ${JSON.stringify(ollama.config)}`,
      );
    }
    return lines.join('\n');
  }

  // ------------------------------------------------------------------------------------------
  // Turns

  async send(options: SendOptions): Promise<StartedTurn> {
    const { settings, model } = await this.readyModel();
    if (options.editOf && !options.conversationId) throw new HarborError('BAD_REQUEST', 'An edited message names its conversation (conversationId).');
    // An unknown toolset is refused before anything is stored.
    if (options.toolset) resolveToolset(settings.toolsets, options.toolset);
    const files = options.files?.length ? prepareFiles(options.files) : undefined;
    if (files?.hasImages && !model.takesImages) {
      throw new HarborError(
        'BAD_REQUEST',
        `The model "${model.label}" does not take images. Remove the image, or choose a model that does in Settings (for a model Harbor does not know, set "vision": true in its "model" entry).`,
      );
    }
    // Read before anything is stored: an attachment that cannot be read fails the send cleanly.
    const attached = options.attachments?.length ? await readAttachments(this.deps.host, options.attachments, options.signal) : [];
    let parts: (string | UserPart)[] = [...attached, ...(files?.parts ?? [])];
    let placement: StartTurnOptions = files?.files.length ? { files: files.files } : {};
    if (!options.conversationId) {
      // A new conversation and its first turn: one write, so a kill between them leaves no empty conversation.
      const started = this.store.startConversation(options.text, model.label, parts, placement);
      if (options.toolset) this.store.setToolset(started.conversationId, options.toolset);
      return this.run(started.conversationId, started.turnId, settings, model, options);
    }
    const conversationId = this.store.resolveId(options.conversationId);
    this.assertIdle(conversationId);
    if (options.toolset !== undefined) this.store.setToolset(conversationId, options.toolset);
    if (options.editOf) {
      // The edited message keeps what the earlier one carried, beside it in the tree.
      const original = this.store.userMessage(conversationId, options.editOf);
      parts = [...original.parts, ...parts];
      placement = { files: [...original.files, ...(files?.files ?? [])], parentId: original.parentId };
    }
    const turnId = this.store.startTurn(conversationId, options.text, model.label, parts, placement);
    return this.run(conversationId, turnId, settings, model, options);
  }

  /** Regenerate: the person's message of `turnId` answered again, as a new branch beside the old answer. */
  async regenerate(options: { readonly conversationId: string; readonly turnId: string } & RunOptions): Promise<StartedTurn> {
    const { settings, model } = await this.readyModel();
    const conversationId = this.store.resolveId(options.conversationId);
    this.assertIdle(conversationId);
    const original = this.store.userMessage(conversationId, options.turnId);
    const turnId = this.store.startTurn(conversationId, original.text, model.label, original.parts, { files: original.files, parentId: original.parentId });
    return this.run(conversationId, turnId, settings, model, options);
  }

  private async readyModel(): Promise<{ settings: ChatSettings; model: ResolvedModel }> {
    if (this.disposed) throw new HarborError('CANCELLED', 'Harbor is shutting down.');
    const settings = this.deps.settings();
    if (!settings.model) {
      if (settings.modelProblem) throw new HarborError('CONFIG_INVALID', settings.modelProblem);
      const ollama = await detectOllama(this.deps.ollamaUrl ?? ollamaUrlFromEnv());
      throw new HarborError('MODEL_NOT_CONFIGURED', this.notConfiguredHelp(ollama));
    }
    return { settings, model: await createLanguageModel(settings.model, this.deps.resolveSecret) };
  }

  private assertIdle(conversationId: string): void {
    if (this.running.has(conversationId)) {
      throw new HarborError('CHAT_BUSY', 'This conversation is still answering. Wait for it, or stop it first.');
    }
  }

  /** Runs a stored turn to its end, reporting it as chat.* events. */
  private run(conversationId: string, turnId: string, settings: ChatSettings, model: ResolvedModel, options: RunOptions): StartedTurn {
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    const running: RunningTurn = { turnId, controller };
    this.running.set(conversationId, running);

    const emit = (event: TurnEvent) => {
      options.onEvent?.(event);
      if (event.type === 'text') this.deps.host.events.emit('chat.delta', { conversationId, turnId, text: event.delta });
      else if (event.type === 'missing') this.deps.host.events.emit('chat.missing', { conversationId, turnId, servers: [...event.servers] });
      else if (event.type === 'toolInput') this.deps.host.events.emit('chat.toolInput', { conversationId, turnId, toolCallId: event.toolCallId, server: event.server, tool: event.tool, text: event.text, resourceUri: event.resourceUri });
      else this.deps.host.events.emit('chat.toolCall', { conversationId, turnId, call: event.call, ...(event.progress ? { progress: event.progress } : {}) });
    };

    const done = (async (): Promise<TurnOutcome> => {
      let outcome: TurnOutcome;
      try {
        if (options.approveOnce) {
          // --yes covers the launches this turn needs: every enabled server, to offer its tools.
          for (const s of this.deps.host.listServers()) if (s.enabled) this.deps.host.consent.approveLaunchesForSession(s.name);
        }
        // Connecting servers may wait on a launch consent: Stop (or shutdown) must not wait with it.
        const toolset = this.conversationToolset(conversationId, settings);
        const tools = await untilAborted(gatherTurnTools(this.deps.host, settings, this.store.toolMode(conversationId), this.deps.codeSandbox, toolset).then((gathered) => withSkills(this.deps.host, gathered, controller.signal)), controller.signal).catch((error: unknown) => {
          if (controller.signal.aborted) return undefined;
          throw error;
        });
        if (!tools) {
          outcome = { conversationId, turnId, status: 'stopped', text: '', steps: 0, note: 'Stopped by the person.' };
        } else if (tools.consentNeeded) {
          outcome = { conversationId, turnId, status: 'consentRequired', text: '', steps: 0, note: tools.consentNeeded.message, error: tools.consentNeeded.toData() };
        } else {
          this.store.setToolMode(conversationId, tools.mode);
          const missing = this.used.missing(conversationId, tools.servers.map((s) => s.name), tools.unavailable.map((u) => ({ server: u.name, error: u.error })));
          if (missing.length > 0) emit({ type: 'missing', servers: missing });
          outcome = await runTurn({
            conversationId,
            turnId,
            model,
            system: buildSystemPrompt({
              servers: tools.servers,
              unavailable: tools.unavailable,
              toolSearch: tools.mode === 'search',
              ...(tools.code ? { codeMode: tools.code.only ? 'on' : 'auto' } : {}),
              ...(tools.skills ? { skills: tools.skills } : {}),
            }),
            tools,
            // The app context goes in after fitting: it is text the apps of this conversation asked the model to know.
            messages: withAppContext(fitHistoryToModel(await this.store.history(conversationId), model.takesImages), this.deps.host.appContext?.(conversationId) ?? []),
            settings,
            approveOnce: options.approveOnce === true,
            signal: controller.signal,
            host: this.deps.host,
            store: this.store,
            emit,
            now: this.now,
          });
        }
      } catch (error) {
        const failure = error instanceof HarborError ? error : new HarborError('INTERNAL', `Unexpected error: ${(error as Error).message}`);
        outcome = { conversationId, turnId, status: 'error', text: '', steps: 0, note: failure.message, error: failure.toData() };
      } finally {
        options.signal?.removeEventListener('abort', onAbort);
        this.running.delete(conversationId);
      }
      try {
        this.store.finishTurn(turnId, outcome.status, outcome.note, outcome.error);
      } catch {
        // The database went away (shutdown): the turn is marked interrupted on the next open.
      }
      this.deps.host.events.emit('chat.done', {
        conversationId,
        turnId,
        status: outcome.status,
        text: outcome.text,
        ...(outcome.error ? { error: outcome.error } : {}),
      });
      return outcome;
    })();
    running.done = done;
    return { conversationId, turnId, done };
  }

  /** Stop: cancels the model stream and every in-flight tool call of the conversation's turn. */
  stop(conversationId: string): boolean {
    const running = this.running.get(conversationId);
    if (!running) return false;
    running.controller.abort(new HarborError('CANCELLED', 'Stopped by the person.'));
    return true;
  }

  // ------------------------------------------------------------------------------------------
  // Conversations

  list(): ConversationSummary[] {
    return this.store.list();
  }

  /** The conversation; from `fromTurn` on, only that turn of its branch and those after it. */
  open(id: string, fromTurn?: string): Conversation {
    return this.store.conversation(this.store.resolveId(id), fromTurn);
  }

  /** One tool call's whole result, from a turn on the branch shown (what a preview stands for). */
  result(id: string, turnId: string, callId: string): ChatToolResult {
    const turn = this.store.conversation(this.store.resolveId(id), turnId).turns[0];
    const item = turn?.items.find((i) => i.kind === 'toolCall' && i.call.id === callId);
    const result = item?.kind === 'toolCall' ? item.call.result : undefined;
    if (!result) throw new HarborError('CONVERSATION_NOT_FOUND', `Turn "${turnId}" has no tool call "${callId}" with a result: reload the conversation and try again.`);
    return result;
  }

  /** Shows the branch through `turnId`; the next message continues it. */
  switchBranch(id: string, turnId: string): Conversation {
    const resolved = this.store.resolveId(id);
    if (this.running.has(resolved)) throw new HarborError('CHAT_BUSY', 'This conversation is still answering. Wait for it, or stop it first.');
    this.store.switchBranch(resolved, turnId);
    return this.store.conversation(resolved);
  }

  /**
   * Why each tool of `server` is or is not offered to the model, from the one gatherer a turn uses
   * (the budget judged with the other servers that are ready, as a turn would count them; none is started).
   */
  async offer(server: string, toolset?: string): Promise<ToolVerdict[]> {
    const settings = this.deps.settings();
    const others = this.deps.host.listServers().filter((s) => s.enabled && s.name !== server && s.state.kind === 'ready').map((s) => s.name);
    const gathered = await gatherOffer(this.deps.host, {
      disabledTools: (name) => settings.disabledTools(name),
      servers: [server, ...others],
      ...(toolset ? { toolset: resolveToolset(settings.toolsets, toolset) } : {}),
      budget: { toolSearch: settings.toolSearch, threshold: settings.toolSearchThreshold, contextWindow: settings.contextWindow },
    });
    return gathered.verdicts.filter((v) => v.server === server);
  }

  /** Limits a conversation to a toolset of the registry (its next turns); null: every tool again. */
  setToolset(id: string, toolset: string | null): ConversationSummary {
    const resolved = this.store.resolveId(id);
    if (toolset !== null) resolveToolset(this.deps.settings().toolsets, toolset);
    return this.store.setToolset(resolved, toolset);
  }

  /** The conversation's toolset as the registry defines it now; one since removed from the registry fails the turn, naming it. */
  private conversationToolset(conversationId: string, settings: ChatSettings): Toolset | undefined {
    const name = this.store.toolset(conversationId);
    return name === undefined ? undefined : resolveToolset(settings.toolsets, name);
  }

  rename(id: string, title: string): ConversationSummary {
    return this.store.rename(this.store.resolveId(id), title);
  }

  delete(id: string): boolean {
    const resolved = this.store.resolveId(id);
    if (this.running.has(resolved)) throw new HarborError('CHAT_BUSY', 'Stop this conversation before deleting it.');
    return this.store.delete(resolved);
  }

  export(id: string, format: 'markdown' | 'json'): ExportedConversation {
    return exportConversation(this.open(id), format);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const turns = [...this.running.values()];
    for (const turn of turns) turn.controller.abort(new HarborError('CANCELLED', 'Harbor is shutting down.'));
    await Promise.all(turns.map((t) => t.done?.catch(() => undefined))); // a turn's failure is told in its own conversation; here we only wait
  }
}
