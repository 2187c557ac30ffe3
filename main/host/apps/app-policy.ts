/**
 * The per-app policy: what one app may do beyond running its own code, decided by the Host from
 * the resource's `_meta.ui` (never by the page that shows the app). It carries the CSP the sandbox
 * is served with, the browser permissions the app's frame gets, and the border preference.
 *
 * Device permissions (camera, microphone, geolocation) are not passed on: a browser remembers such
 * a grant for the page's origin — Harbor's, not the app's — so one yes would silently cover every
 * later app. Clipboard writing is allowed; the browser still requires a click inside the app.
 */
import { buildAppCsp, type AppCsp } from './csp';
import type { PermissionName, ResourceUiMeta } from './ui-meta';

const GRANTABLE: ReadonlySet<PermissionName> = new Set(['clipboardWrite']);

/** The Permissions Policy feature each grantable permission maps to in the frame's `allow` attribute. */
const ALLOW_FEATURE: Readonly<Record<PermissionName, string>> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

export interface AppPolicy {
  readonly csp: AppCsp;
  readonly permissions: { readonly granted: readonly PermissionName[]; readonly refused: readonly PermissionName[] };
  /** The inner frame's `allow` attribute ('' when nothing is granted). */
  readonly allow: string;
  readonly prefersBorder?: boolean;
  /** A dedicated origin the server asked for and did not get (Harbor gives each app an opaque one). */
  readonly ignoredDomain?: string;
}

export function appPolicy(meta: ResourceUiMeta | undefined): AppPolicy {
  const requested = meta?.permissions ?? [];
  const granted = requested.filter((p) => GRANTABLE.has(p));
  const refused = requested.filter((p) => !GRANTABLE.has(p));
  return {
    csp: buildAppCsp(meta?.csp),
    permissions: { granted, refused },
    allow: granted.map((p) => ALLOW_FEATURE[p]).join('; '),
    ...(meta?.prefersBorder !== undefined ? { prefersBorder: meta.prefersBorder } : {}),
    ...(meta?.domain ? { ignoredDomain: meta.domain.slice(0, 200) } : {}),
  };
}

/** The reason a permission is not granted, as the Activity entry says it. */
export const PERMISSION_REFUSAL =
  'Harbor does not pass camera, microphone or location access to apps (the browser would remember it for Harbor, not for this app).';
