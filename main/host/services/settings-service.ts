import { checkModelConnection, type ModelCheck } from '../chat/model-check';
import { resolveChatSettings, type ChatSettings } from '../chat/settings';
import { HarborError } from '../errors';
import type { RegistryEditing } from './registry-editing';
import type { RegistryState } from './registry-state';
import type { SecretService } from './secret-service';
import { modelKeySecretName, settingsView, withChat, withModel, withToolset, type ChatInput, type ModelInput, type SettingsView } from './settings-edits';

/** What the app's Settings page sends for the model: the key kept, taken from the environment, or set now. */
export type ModelSettingsInput = Omit<ModelInput, 'apiKey'> & { apiKeyMode: 'keep' | 'env' | 'set'; apiKey?: string };

/** The registry's "model" and "chat" entries: the app's Settings page, and the chat's settings. */
export class SettingsService {
  constructor(
    private readonly registry: RegistryState,
    private readonly editing: RegistryEditing,
    private readonly secrets: SecretService,
  ) {}

  async get(): Promise<SettingsView> {
    const names = await this.secrets.list().then(
      (list) => new Set(list),
      () => undefined, // keychain unavailable: the page shows the key as "not checked"
    );
    return settingsView(this.registry.file, names);
  }

  /**
   * Sets (or, with null, removes) the chat model. A new API key goes to the keychain first and the
   * registry gets only its `${secret:…}` reference.
   */
  async setModel(input: ModelSettingsInput | null): Promise<SettingsView> {
    const file = this.registry.requireValid().file;
    if (input === null) {
      await this.editing.edit((current) => withModel(current, null));
      return this.get();
    }
    const { apiKeyMode, apiKey, ...model } = input;
    let key: ModelInput['apiKey'] = { kind: apiKeyMode === 'env' ? 'env' : 'keep' };
    if (apiKeyMode === 'set') {
      const value = apiKey?.trim() ?? '';
      if (!value) throw new HarborError('BAD_REQUEST', 'The API key is empty: paste the key, or choose to use the environment variable.');
      const secret = modelKeySecretName(model.provider);
      // Checked before the keychain write: a bad model entry must not leave a stray secret.
      withModel(file, { ...model, apiKey: { kind: 'secret', secret } });
      await this.secrets.set(secret, value);
      key = { kind: 'secret', secret };
    }
    await this.editing.edit((current) => withModel(current, { ...model, apiKey: key }));
    return this.get();
  }

  async setChat(input: ChatInput): Promise<SettingsView> {
    this.registry.requireValid();
    await this.editing.edit((current) => withChat(current, input));
    return this.get();
  }

  /** Sets a toolset's entries ("SERVER/TOOL", "SERVER/*"), or removes it (null): one registry edit under its lock. */
  async setToolset(name: string, entries: readonly string[] | null): Promise<SettingsView> {
    this.registry.requireValid();
    await this.editing.edit((current) => withToolset(current, name, entries));
    return this.get();
  }

  /** Sends one tiny request to the saved model (Settings › Model › Test connection). */
  async testModel(): Promise<ModelCheck> {
    const model = this.chat().model;
    if (!model) throw new HarborError('MODEL_NOT_CONFIGURED', 'No model is set. Choose a provider and model, save them, then test the connection.');
    return checkModelConnection(model, (name) => this.secrets.resolve(name));
  }

  /** The chat's settings from the registry's "model" and "chat" entries (throws when the file is invalid). */
  chat(): ChatSettings {
    const registry = this.registry.requireValid();
    return resolveChatSettings(registry.file, registry.servers, this.registry.modelProblems);
  }
}
