import type { LogLevel, ServerLogsView } from '../../../preload/contract';
import { HarborError } from '../errors';
import type { LogBook } from './log-book';
import type { RegistryEditing } from './registry-editing';
import type { RegistryState } from './registry-state';
import type { ServerControl } from './server-control';

/**
 * One server's log view: the log messages it sent, the level the person chose (kept in the
 * registry as "logLevel", applied without a restart) and its stderr beside them.
 */
export class ServerLogService {
  constructor(
    private readonly logs: LogBook,
    private readonly servers: ServerControl,
    private readonly registry: RegistryState,
    private readonly editing: RegistryEditing,
  ) {}

  view(server: string): ServerLogsView {
    this.servers.get(server); // SERVER_NOT_FOUND for a name not in the registry
    const level = this.registry.server(server)?.logLevel;
    let connection: ReturnType<ServerControl['connection']> | undefined;
    try {
      connection = this.servers.connection(server);
    } catch {
      // Disabled or misconfigured: no connection, only what was logged before.
    }
    const ready = connection?.state.kind === 'ready';
    const era = connection?.info.era;
    return {
      server,
      entries: this.logs.list(server),
      ...(level ? { level } : {}),
      ...(ready ? { supported: connection!.info.capabilities?.logging !== undefined } : {}),
      ...(era ? { era } : {}),
      stderrTail: connection?.stderrTail() ?? '',
    };
  }

  /** Sets (or with null clears) the server's level in the registry; a running server is told at once. */
  async setLevel(server: string, level: LogLevel | null): Promise<ServerLogsView> {
    const config = this.registry.requireValid().servers.get(server);
    if (!config) throw new HarborError('SERVER_NOT_FOUND', `No server named "${server}".`);
    const { logLevel: _previous, ...rest } = config;
    await this.editing.update(server, level ? { ...rest, logLevel: level } : rest);
    return this.view(server);
  }
}
