/**
 * What Harbor's records say a sandboxed server owns inside the data folder (the sandbox reads
 * nothing else of it back, main/host/sandbox/own-folders.ts): the folder its bundle was unpacked
 * to, from the registry entry's `installed` record, and the example server's notes for the entry
 * that runs Harbor's own example server as the first run wrote it.
 */
import { installedBundleOf } from '../bundles/target';
import { isStdio, type ServerConfig } from '../registry/schema';
import type { OwnFolderClaims } from '../sandbox/own-folders';
import { defaultRegistry } from './host-options';

export function sandboxOwnership(server: (name: string) => ServerConfig | undefined): (name: string) => OwnFolderClaims {
  return (name) => {
    const config = server(name);
    const bundleDir = installedBundleOf(config)?.dir;
    return { ...(bundleDir !== undefined ? { bundleDir } : {}), exampleServer: config !== undefined && runsExampleServer(config) };
  };
}

/** Harbor's node running Harbor's bundled example server script, as the first run's registry has it. */
function runsExampleServer(config: ServerConfig): boolean {
  const example = defaultRegistry().mcpServers!.notes!;
  if (!isStdio(config) || !isStdio(example)) return false;
  return config.command === example.command && config.args?.[0] === example.args?.[0];
}
