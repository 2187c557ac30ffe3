import { readFile } from 'node:fs/promises';
import type { RegistryProblem, RegistryView, ServerSummary } from '../../../preload/contract';
import { HarborError } from '../errors';
import { checkRegistryText, withServerAdded, withServerRemoved, withServerUpdated, withToolEnabled } from '../registry/editor';
import type { RegistryFile } from '../registry/schema';
import type { LoadedRegistry } from '../registry/store';
import type { RegistryState } from './registry-state';
import type { ServerControl } from './server-control';

/**
 * Editing the registry (the app's server editor and raw JSON editor, the Tools view's switches):
 * every edit is checked, saved atomically, read back, and applied to the running servers — only
 * what changed restarts.
 */
export class RegistryEditing {
  constructor(
    private readonly registry: RegistryState,
    private readonly servers: ServerControl,
    private readonly configPath: string,
  ) {}

  /** (Re)reads the registry file and applies it; a bad file is reported (appInfo, view), not thrown. */
  async reload(): Promise<void> {
    await this.registry.reload();
    await this.servers.apply();
  }

  /** Saves a new registry file (atomically, keeping .bak) and applies it. */
  async save(file: RegistryFile): Promise<void> {
    await this.registry.save(file);
    await this.servers.apply();
  }

  /** Throws the file's problems (CLI: exit 2); the app shows them instead. */
  requireValid(): LoadedRegistry {
    return this.registry.requireValid();
  }

  /**
   * The registry for the app's editor: the file's own text (as the person wrote it) and, when it
   * is broken, each problem with the line it is on.
   */
  async view(): Promise<RegistryView> {
    const file = this.registry.file;
    const raw = await readFile(this.configPath, 'utf8').catch(() => undefined);
    const checked = !file && raw !== undefined ? checkRegistryText(raw) : undefined;
    return {
      path: this.configPath,
      text: raw ?? (file ? `${JSON.stringify(file, null, 2)}\n` : ''),
      servers: Object.entries(file?.mcpServers ?? {}).map(([name, config]) => ({ name, config: { ...config } })),
      problems:
        checked && checked.problems.length > 0
          ? checked.problems
          : this.registry.problems.map((line) => {
              const sep = line.indexOf(': ');
              return sep > 0 ? { path: line.slice(0, sep), message: line.slice(sep + 2) } : { path: '(file)', message: line };
            }),
    };
  }

  async add(name: string, config: Record<string, unknown>): Promise<ServerSummary> {
    await this.save(withServerAdded(this.registry.requireValid().file, name, config));
    return this.servers.get(name);
  }

  async update(name: string, config: Record<string, unknown>, newName?: string): Promise<ServerSummary> {
    await this.save(withServerUpdated(this.registry.requireValid().file, name, config, newName));
    return this.servers.get(newName ?? name);
  }

  async remove(name: string): Promise<boolean> {
    await this.save(withServerRemoved(this.registry.requireValid().file, name));
    return true;
  }

  /** Raw JSON editing: nothing is written unless the whole text is valid. */
  async saveText(text: string): Promise<{ saved: boolean; problems: RegistryProblem[] }> {
    const checked = checkRegistryText(text);
    if (!checked.file) return { saved: false, problems: checked.problems };
    await this.save(checked.file);
    return { saved: true, problems: [] };
  }

  /** Turns one tool of a server on or off; a disabled tool is never offered to the model. The server keeps running. */
  async setToolEnabled(server: string, tool: string, enabled: boolean): Promise<{ disabledTools: string[] }> {
    const config = this.registry.requireValid().servers.get(server);
    if (!config) throw new HarborError('SERVER_NOT_FOUND', `No server named "${server}".`);
    const next = withToolEnabled(config, tool, enabled);
    await this.update(server, next as Record<string, unknown>);
    return { disabledTools: [...(next.disabledTools ?? [])] };
  }
}
