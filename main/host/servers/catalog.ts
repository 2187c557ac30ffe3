import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/client';
import { canonical } from '../canonical-json';

export interface Catalog {
  readonly tools: readonly Tool[];
  readonly resources: readonly Resource[];
  readonly resourceTemplates: readonly ResourceTemplateType[];
  readonly prompts: readonly Prompt[];
}

export type CatalogKind = keyof Catalog;
export const CATALOG_KINDS: readonly CatalogKind[] = ['tools', 'resources', 'resourceTemplates', 'prompts'];

export const EMPTY_CATALOG: Catalog = { tools: [], resources: [], resourceTemplates: [], prompts: [] };

/** Which parts of a catalog differ, compared as canonical JSON (order of keys does not matter). */
export function diffCatalog(before: Catalog, after: Catalog): CatalogKind[] {
  return CATALOG_KINDS.filter((kind) => canonical(before[kind]) !== canonical(after[kind]));
}

