import type { HarborApi } from '../../../../preload/contract';

export interface HostInfo {
  readonly version: string;
  /** How the app calls Harbor's surroundings: the desktop app, or a browser (browser mode). */
  readonly platform: 'desktop' | 'web';
}

const cache = new WeakMap<HarborApi, Promise<HostInfo>>();

/** Harbor's version and door, asked once per api (what apps learn as host info and context). */
export function hostInfo(api: HarborApi): Promise<HostInfo> {
  let info = cache.get(api);
  if (!info) {
    info = api.app.info({}).then((result) =>
      result.ok ? { version: result.value.version, platform: result.value.mode === 'electron' ? 'desktop' : 'web' } : { version: '0', platform: 'web' },
    );
    cache.set(api, info);
  }
  return info;
}
