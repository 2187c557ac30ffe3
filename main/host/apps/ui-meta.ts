/**
 * What the MCP Apps extension puts in `_meta`, read defensively: servers write it, so every field
 * is checked and anything malformed is dropped (never thrown) — a tool with a broken UI link is
 * still a plain tool, and a resource with a broken CSP entry gets the stricter policy.
 *
 * Tools name their UI in `_meta.ui.resourceUri` (the older flat `_meta["ui/resourceUri"]` too) and
 * say who may call them in `_meta.ui.visibility` ("model", "app"; both when absent). Resources
 * carry their rendering needs in `_meta.ui` (CSP domains, permissions, border) on the listing, on
 * the content item, or both.
 */
import { z } from 'zod';
import { MCP_APP_MIME_TYPE } from '../servers/client-factory';

export { MCP_APP_MIME_TYPE } from '../servers/client-factory';

/** The older, flat key a tool may still use for its UI resource. */
export const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';
export const UI_SCHEME = 'ui://';

export type Audience = 'model' | 'app';

interface WithMeta {
  readonly _meta?: unknown;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function uiOf(item: WithMeta): Record<string, unknown> | undefined {
  return record(record(item._meta)?.ui);
}

/**
 * The `ui://` resource a tool renders its results with, or undefined. The nested key wins over the
 * flat one; a value that is not a `ui://` URI is no UI at all (a server cannot point Harbor at a
 * web page or a file this way).
 */
export function toolUiResourceUri(tool: WithMeta): string | undefined {
  const nested = uiOf(tool)?.resourceUri;
  const flat = record(tool._meta)?.[LEGACY_RESOURCE_URI_KEY];
  const uri = nested !== undefined ? nested : flat;
  return typeof uri === 'string' && uri.startsWith(UI_SCHEME) && uri.length > UI_SCHEME.length ? uri : undefined;
}

/**
 * Who may call a tool. Absent or malformed visibility means both (the specification's default);
 * unknown audiences are ignored, and an empty list means nobody.
 */
export function toolVisibility(tool: WithMeta): ReadonlySet<Audience> {
  const raw = uiOf(tool)?.visibility;
  if (!Array.isArray(raw)) return new Set<Audience>(['model', 'app']);
  return new Set(raw.filter((entry): entry is Audience => entry === 'model' || entry === 'app'));
}

/** Whether the model may be offered the tool: a tool for its app alone never reaches the model. */
export function isVisibleToModel(tool: WithMeta): boolean {
  return toolVisibility(tool).has('model');
}

/** Whether an app of the tool's own server may call it. */
export function isCallableByApp(tool: WithMeta): boolean {
  return toolVisibility(tool).has('app');
}

const Domains = z.array(z.unknown()).transform((list) => list.filter((d): d is string => typeof d === 'string'));

/** `_meta.ui` of a UI resource; unknown fields are ignored, malformed ones dropped. */
const ResourceUi = z.object({
  csp: z
    .object({
      connectDomains: Domains.optional().catch(undefined),
      resourceDomains: Domains.optional().catch(undefined),
      frameDomains: Domains.optional().catch(undefined),
      baseUriDomains: Domains.optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
  permissions: z
    .object({
      camera: z.unknown().optional(),
      microphone: z.unknown().optional(),
      geolocation: z.unknown().optional(),
      clipboardWrite: z.unknown().optional(),
    })
    .optional()
    .catch(undefined),
  domain: z.string().optional().catch(undefined),
  prefersBorder: z.boolean().optional().catch(undefined),
});

export interface ResourceCsp {
  readonly connectDomains?: readonly string[];
  readonly resourceDomains?: readonly string[];
  readonly frameDomains?: readonly string[];
  readonly baseUriDomains?: readonly string[];
}

export type PermissionName = 'camera' | 'microphone' | 'geolocation' | 'clipboardWrite';
export const PERMISSION_NAMES: readonly PermissionName[] = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];

export interface ResourceUiMeta {
  readonly csp?: ResourceCsp;
  /** The browser capabilities the app asks for (presence of the key is the request). */
  readonly permissions: readonly PermissionName[];
  /** A dedicated origin the server would like; Harbor serves every app from its own sandbox origin. */
  readonly domain?: string;
  readonly prefersBorder?: boolean;
}

/** The `_meta.ui` of a resource listing or content item, or undefined when it has none (or none that parses). */
export function resourceUiMeta(item: WithMeta): ResourceUiMeta | undefined {
  const raw = uiOf(item);
  if (!raw) return undefined;
  const parsed = ResourceUi.safeParse(raw);
  if (!parsed.success) return undefined;
  const { csp, permissions, domain, prefersBorder } = parsed.data;
  const requested = PERMISSION_NAMES.filter((name) => permissions?.[name] !== undefined && permissions[name] !== null && permissions[name] !== false);
  const cleanCsp = csp
    ? Object.fromEntries(Object.entries(csp).filter(([, list]) => Array.isArray(list)))
    : undefined;
  return {
    ...(cleanCsp && Object.keys(cleanCsp).length > 0 ? { csp: cleanCsp as ResourceCsp } : {}),
    permissions: requested,
    ...(domain !== undefined ? { domain } : {}),
    ...(prefersBorder !== undefined ? { prefersBorder } : {}),
  };
}

/** Whether a MIME type is the one Harbor renders (parameters compared without case or spaces). */
export function isAppMimeType(mimeType: unknown): boolean {
  if (typeof mimeType !== 'string') return false;
  const normalize = (type: string) =>
    type
      .split(';')
      .map((part) => part.trim().toLowerCase())
      .filter(Boolean)
      .join(';');
  return normalize(mimeType) === normalize(MCP_APP_MIME_TYPE);
}
