/**
 * How an opened app and its policy read in the audit trail and in the contract: one entry for the
 * opening, one per CSP grant or refusal, one per permission decision.
 */
import type { AppPolicyView } from '../../../preload/contract';
import type { AppPolicy } from '../apps/app-policy';
import type { NewAppActivity } from '../apps/app-activity';
import type { CspKind } from '../apps/csp';

type Entry = Omit<NewAppActivity, 'server' | 'instanceId' | 'uri'>;

/** The directives each declared kind feeds (what the grant lets the app do). */
const DIRECTIVES: Readonly<Record<CspKind, string>> = {
  connect: 'connect-src',
  resource: 'script/style/img/font/media-src',
  frame: 'frame-src',
  baseUri: 'base-uri',
};

const WHERE_META: Readonly<Record<'content' | 'listing' | 'none', string>> = {
  content: 'its _meta.ui read from the resource itself',
  listing: 'its _meta.ui read from the resource listing',
  none: 'no _meta.ui declared',
};

export function appOpenedEntries(metaFrom: keyof typeof WHERE_META, tool: string | undefined, policy: AppPolicy, permissionRefusal: string): Entry[] {
  const entries: Entry[] = [
    { kind: 'open', method: 'open', detail: `${tool ? `for ${tool}, ` : ''}${WHERE_META[metaFrom]}`, outcome: 'info' },
  ];
  for (const grant of policy.csp.grants) {
    entries.push({ kind: 'csp', method: DIRECTIVES[grant.kind], detail: `allowed ${grant.source}`, outcome: 'allowed' });
  }
  if (policy.csp.grants.length === 0) {
    entries.push({ kind: 'csp', method: 'csp', detail: 'no domains: the app reaches nothing beyond its own document', outcome: 'info' });
  }
  for (const refusal of policy.csp.refused) {
    entries.push({ kind: 'csp', method: DIRECTIVES[refusal.kind], detail: `refused "${refusal.entry}": ${refusal.reason}`, outcome: 'refused' });
  }
  for (const name of policy.permissions.granted) entries.push({ kind: 'permission', method: name, detail: 'allowed (the browser still asks for a click in the app)', outcome: 'allowed' });
  for (const name of policy.permissions.refused) entries.push({ kind: 'permission', method: name, detail: `refused: ${permissionRefusal}`, outcome: 'refused' });
  if (policy.ignoredDomain) {
    entries.push({ kind: 'csp', method: 'domain', detail: `asked for its own origin ${policy.ignoredDomain}; Harbor gives every app a private, opaque origin instead`, outcome: 'info' });
  }
  return entries;
}

export function policyView(policy: AppPolicy): AppPolicyView {
  const sources = (kind: CspKind) => policy.csp.grants.filter((g) => g.kind === kind).map((g) => g.source);
  return {
    csp: { connectDomains: sources('connect'), resourceDomains: sources('resource'), frameDomains: sources('frame'), baseUriDomains: sources('baseUri') },
    refused: policy.csp.refused.map((r) => ({ ...r })),
    permissions: { granted: [...policy.permissions.granted], refused: [...policy.permissions.refused] },
    allow: policy.allow,
    ...(policy.prefersBorder !== undefined ? { prefersBorder: policy.prefersBorder } : {}),
  };
}

const MAX_ARGUMENTS_SHOWN = 160;

/** A tool call's arguments as one short line of the audit trail. */
export function argumentsSummary(args: Record<string, unknown> | undefined): string {
  if (!args || Object.keys(args).length === 0) return '';
  let text: string;
  try {
    text = JSON.stringify(args);
  } catch {
    return ' (arguments not shown)';
  }
  return ` ${text.length > MAX_ARGUMENTS_SHOWN ? `${text.slice(0, MAX_ARGUMENTS_SHOWN - 1)}…` : text}`;
}
