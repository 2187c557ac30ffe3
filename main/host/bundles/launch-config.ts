import { sep } from 'node:path';
import { HarborError } from '../errors';
import { hasSecretRef } from '../secrets/references';
import type { BundleManifest } from './manifest';
import { systemDirs, type GivenValue } from './user-config';

/** What a bundle runs, as the registry entry will hold it (secrets as references, Harbor's Node as `${harbor:node}`). */
export interface BundleLaunch {
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
}

const refuse = (why: string) => new HarborError('BAD_REQUEST', `${why} Nothing was installed.`);
const UNRESOLVED = /\$\{user_config\.[^}]*\}/g;
const PYTHON = /^python(3(\.\d+)?)?(\.exe)?$/i;
const NODE = /^node(\.exe)?$/i;

/**
 * The launch of a bundle unpacked at `dir`: the manifest's mcp_config with this platform's
 * override, `${__dirname}`, `${HOME}` (and the other folders) and `${user_config.KEY}` resolved by
 * `@anthropic-ai/mcpb`'s own resolver; a setting left empty drops out. Node bundles run on
 * Harbor's own Node; Python bundles through uv (`uvPath`: where uv is, or undefined when it is not
 * installed — a clear refusal then).
 */
export async function bundleLaunch(manifest: BundleManifest, dir: string, values: Readonly<Record<string, GivenValue>>, uvPath: string | undefined): Promise<BundleLaunch> {
  const platforms = manifest.compatibility?.platforms;
  if (platforms?.length && !platforms.includes(process.platform as 'darwin' | 'win32' | 'linux')) {
    throw refuse(`This bundle is made for ${platforms.join(', ')}, not for this computer (${process.platform}).`);
  }
  const raw = JSON.stringify(manifest.server.mcp_config);
  if (/\$\{(secret|harbor):/.test(raw)) throw refuse("This bundle's manifest refers to Harbor's own ${secret:…} or ${harbor:…} values, which a bundle may not do.");
  const { getMcpConfigForManifest } = await import('@anthropic-ai/mcpb/node');
  const config = await getMcpConfigForManifest({ manifest, extensionPath: dir, systemDirs: systemDirs(), userConfig: values, pathSeparator: sep });
  if (!config) throw refuse('This bundle has required settings without a value.');
  const args = (config.args ?? []).filter((arg) => !/^\$\{user_config\.[^}]*\}$/.test(arg)).map((arg) => arg.replace(UNRESOLVED, ''));
  const env = Object.fromEntries(
    Object.entries(config.env ?? {})
      .map(([key, value]) => [key, value.replace(UNRESOLVED, '')] as const)
      .filter(([, value]) => value !== ''),
  );
  const exposed = args.filter(hasSecretRef).length + (hasSecretRef(config.command) ? 1 : 0);
  if (exposed > 0) {
    throw refuse('This bundle passes a sensitive setting on its command line, where other programs on this computer can read it. Harbor gives secrets to servers only in environment variables.');
  }
  return runtimeLaunch(manifest, { command: config.command, args, env }, uvPath);
}

function runtimeLaunch(manifest: BundleManifest, launch: BundleLaunch, uvPath: string | undefined): BundleLaunch {
  const type = manifest.server.type;
  if (type === 'node' && NODE.test(launch.command)) return { ...launch, command: '${harbor:node}' };
  const python = type === 'python' && PYTHON.test(launch.command);
  if (python || type === 'uv') {
    if (!uvPath) {
      throw refuse(
        `"${manifest.name}" is a Python server, and Harbor runs Python servers through uv, which is not installed here. Install uv (https://docs.astral.sh/uv/getting-started/installation/), then install the bundle again.`,
      );
    }
    if (!python) return launch;
    const wants = manifest.compatibility?.runtimes?.python;
    return { ...launch, command: 'uv', args: ['run', '--no-project', ...(wants ? ['--python', wants] : []), 'python', ...launch.args] };
  }
  return launch;
}
