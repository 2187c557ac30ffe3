import { useEffect, useState } from 'react';
import type * as RjsfFieldsModule from './rjsf/RjsfFields';

/** The RJSF form's module, fetched once on first use: RJSF is not in the bundle that paints the app. */
type Module = typeof RjsfFieldsModule;

let loaded: Module | undefined;
let loading: Promise<Module> | undefined;

export function loadSchemaForm(): Promise<Module> {
  loading ??= import('./rjsf/RjsfFields').then((module) => (loaded = module));
  return loading;
}

/** The module once it is here (at once when an earlier form already loaded it). */
export function useSchemaFormModule(): Module | undefined {
  const [module, setModule] = useState(loaded);
  useEffect(() => {
    if (module) return;
    let live = true;
    void loadSchemaForm().then((m) => live && setModule(() => m));
    return () => {
      live = false;
    };
  }, [module]);
  return module;
}
