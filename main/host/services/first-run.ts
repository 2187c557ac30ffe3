import { serverRef } from '../consent/identity';
import type { AdoptedServer } from '../consent/registry-adoption';
import { ConsentStore } from '../consent/store';
import type { DataAccess } from '../open-database';
import { launchHash, resolveLaunch, type LaunchVariables } from '../servers/launch';
import type { RegistryState } from './registry-state';

/**
 * The first run of a Harbor that keys consent by server identity, over a data folder an older
 * Harbor wrote (consent/database.ts decides; a fresh data folder adopts nothing), adopts the registry it finds
 * (consent/registry-adoption.ts): earlier decisions move to the identities their servers have now,
 * the secrets servers already reference become theirs, and the remote servers already configured
 * count as approved — so what worked before keeps working. Only once: a file imported later gets
 * none of this. A registry with problems is adopted on the first run that can read it.
 */
export function adoptRegistryOnFirstRun(store: ConsentStore, registry: RegistryState, variables: LaunchVariables): boolean {
  if (!registry.file) return false;
  const servers: AdoptedServer[] = [...registry.servers].map(([name, config]) => {
    let spec;
    try {
      spec = resolveLaunch(name, config, variables);
    } catch {
      // An unknown ${harbor:…} variable: it never launched, so no approval of it can carry over.
    }
    return {
      ref: serverRef(name, config),
      config,
      ...(spec?.transport === 'http' ? { url: spec.url } : {}),
      ...(spec ? { legacyLaunchHash: launchHash(spec) } : {}),
    };
  });
  return store.adoptRegistry(servers);
}

/**
 * consent.db as `access` opens it; `adopt` (a reader's, which adopts when it first needs consent
 * rather than at start) runs on it before anyone else sees it. The store is closed if it fails.
 */
export function openConsentStore(path: string, access: DataAccess, adopt?: (store: ConsentStore) => unknown): ConsentStore {
  const store = new ConsentStore(path, { access });
  try {
    adopt?.(store);
  } catch (error) {
    store.dispose();
    throw error;
  }
  return store;
}
