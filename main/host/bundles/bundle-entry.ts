import { sandboxForInstall } from '../installs/sandbox';
import type { ServerConfig } from '../registry/schema';
import { bundleLaunch } from './launch-config';
import type { ReadBundle } from './read-bundle';
import type { BundleTarget } from './target';
import { answerUserConfig, type AnsweredConfig, type GivenValue } from './user-config';

/** The person's own switches on a server, which an update keeps. */
const KEPT_ON_UPDATE = ['enabled', 'trusted', 'timeoutMs', 'probeTimeoutMs', 'disabledTools', 'sandbox', 'cwd'] as const;

export interface BundleEntry {
  /** The registry entry as it will be written. */
  readonly config: Record<string, unknown>;
  readonly answered: AnsweredConfig;
}

/**
 * The registry entry for a bundle unpacked at `dir`: its launch with the person's answers, where it
 * came from (so an update keeps the answers and a removal finds the files), and the sandbox. An
 * update keeps the person's switches (on/off, trust, timeouts, disabled tools, sandbox).
 */
export async function bundleEntry(input: {
  readonly read: ReadBundle;
  readonly target: BundleTarget;
  readonly given: Readonly<Record<string, GivenValue>>;
  readonly secretName: (key: string) => string;
  readonly dir: string;
  readonly uvPath: string | undefined;
  /** A new server gets `"sandbox"` (the sandbox's `sandboxForInstalls`); an update keeps the person's choice. */
  readonly sandbox: boolean;
}): Promise<BundleEntry> {
  const { manifest } = input.read;
  const existing = input.target.existing;
  const answered = answerUserConfig(manifest, input.given, existing?.installed.userConfig ?? {}, input.secretName);
  const launch = await bundleLaunch(manifest, input.dir, answered.values, input.uvPath);
  const sandbox = existing ? undefined : sandboxForInstall(launch.command, input.sandbox);
  const kept: Record<string, unknown> = {};
  for (const field of KEPT_ON_UPDATE) {
    const value = existing?.config[field as keyof ServerConfig];
    if (value !== undefined) kept[field] = value;
  }
  const config: Record<string, unknown> = {
    command: launch.command,
    args: launch.args,
    ...(Object.keys(launch.env).length > 0 ? { env: launch.env } : {}),
    ...(sandbox !== undefined ? { sandbox } : {}),
    ...kept,
    installed: {
      from: 'bundle',
      bundle: manifest.name,
      version: manifest.version,
      dir: input.dir,
      ...(Object.keys(answered.kept).length > 0 ? { userConfig: answered.kept } : {}),
    },
  };
  return { config, answered };
}
