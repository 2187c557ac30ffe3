import type { CommandHandlers } from './dispatch';
import type { Host } from './host/host';

type InstallCommand = Extract<keyof CommandHandlers, `bundles.${string}` | `gallery.${string}`>;

/** The install commands (bundles and the gallery), bound to the Host's doors; part of bindCommands. */
export function bindInstallCommands(host: Host): Pick<CommandHandlers, InstallCommand> {
  return {
    'bundles.upload': (input) => host.bundles.upload(input),
    'bundles.pending': async () => host.bundles.pending(),
    'bundles.install': ({ id, name, values, dryRun, allowEnv, allowLookalike }) =>
      host.bundles.install(id, { values, ...(name ? { name } : {}), ...(dryRun ? { dryRun } : {}), ...(allowEnv ? { allowEnv } : {}), ...(allowLookalike ? { allowLookalike } : {}) }),
    'bundles.discard': async ({ id }) => ({ discarded: host.bundles.discard(id) }),
    'gallery.settings': async () => host.gallery.settings(),
    'gallery.setSettings': (input) => host.gallery.setSettings(input),
    'gallery.search': (query) => host.gallery.search(query),
    'gallery.install': ({ registry, server, version, option, name, values, dryRun, allowEnv, allowLookalike }) =>
      host.gallery.install({ registry, server, version, option, values, ...(name ? { name } : {}), ...(dryRun ? { dryRun } : {}), ...(allowEnv ? { allowEnv } : {}), ...(allowLookalike ? { allowLookalike } : {}) }),
    'gallery.fetchBundle': (pick) => host.gallery.fetchBundle(pick),
  };
}
