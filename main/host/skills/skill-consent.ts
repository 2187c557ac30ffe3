import { HarborError } from '../errors';
import type { SkillApprovalStore } from './approvals';
import type { HeldSkill } from './skill-catalog';
import { fileChanges, filesOf, type PinnedFile } from './skill-files';

/** Where a skill stands with the person before a load. */
export type SkillStanding =
  | { readonly kind: 'approved' }
  /** Approved once, pinned to other files: what changed, one line per file. */
  | { readonly kind: 'changed'; readonly changes: readonly string[]; readonly approved: readonly PinnedFile[] }
  | { readonly kind: 'unapproved' }
  /** `"dynamic"`: no file list to pin an approval to; every load is asked. */
  | { readonly kind: 'dynamic' };

export type SkillDecision = 'once' | 'always' | 'deny';

/** What the person is shown before a skill enters the model's context. */
export interface SkillQuestion {
  readonly held: HeldSkill;
  readonly files: readonly PinnedFile[] | 'dynamic';
  /** SKILL.md's text, read and verified. */
  readonly text: string | undefined;
  readonly changes?: readonly string[];
  /** The files as the person approved them, when they changed since. */
  readonly approved?: readonly PinnedFile[];
  /** The conversation whose model asks (absent for a load by hand). */
  readonly conversationId?: string;
  readonly signal?: AbortSignal;
}

/** Asks the person (the app's dialog). Absent where no one can answer. */
export type SkillAsk = (question: SkillQuestion) => Promise<SkillDecision>;

/**
 * Consent bound to content: an approval ("always for this skill") is pinned to the entry's whole
 * `resources` set, keyed by (server identity, skill URI); when any file's digest or size changes,
 * or a file is added or removed, the next load asks again and shows what changed. A nested skill
 * is its own URI, so its own approval. A dynamic skill is asked at every load. Nothing here looks
 * at a skill's `allowed-tools`: a skill grants no tool.
 */
export class SkillConsent {
  constructor(
    private readonly store: SkillApprovalStore,
    private readonly ask: SkillAsk | undefined,
  ) {}

  /** Whether a person can be asked here (the app); in the CLI an unapproved load is refused before anything is read. */
  get canAsk(): boolean {
    return this.ask !== undefined;
  }

  standing(held: HeldSkill): SkillStanding {
    const files = filesOf(held.entry);
    if (!files) return { kind: 'dynamic' };
    const approval = this.store.get(held.server.identity, held.entry.uri);
    if (!approval) return { kind: 'unapproved' };
    const changes = fileChanges(approval.files, files);
    return changes.length === 0 ? { kind: 'approved' } : { kind: 'changed', changes, approved: approval.files };
  }

  /** The refusal where no one can be asked (the CLI without --yes): CONSENT_REQUIRED, or CONSENT_STALE naming what changed. */
  refusal(held: HeldSkill, standing: SkillStanding): HarborError {
    const label = `the skill "${held.entry.frontmatter.name}" (${held.entry.uri}) of "${held.server.name}"`;
    const grant = `harbor consent grant-skill ${held.server.name} ${held.entry.uri}`;
    if (standing.kind === 'changed') {
      return new HarborError('CONSENT_STALE', `Loading ${label} needs your consent again: its files changed since you approved it (${standing.changes.join('; ')}). Review it, then run ${grant}, or add --yes to allow this load.`, undefined, {
        changed: [...standing.changes],
      });
    }
    if (standing.kind === 'dynamic') return new HarborError('CONSENT_REQUIRED', `Loading ${label} needs your consent at every load: its files are generated ("dynamic") and cannot be verified. Add --yes to allow this load.`);
    return new HarborError('CONSENT_REQUIRED', `Loading ${label} needs your consent: add --yes to allow this load, or run ${grant}.`);
  }

  /** Asks the person; 'always' pins the approval. Throws CONSENT_DENIED on a no, or the refusal when no one can be asked. */
  async decide(question: SkillQuestion, standing: SkillStanding): Promise<void> {
    if (!this.ask) throw this.refusal(question.held, standing);
    const decision = await this.ask(question);
    if (decision === 'deny') throw new HarborError('CONSENT_DENIED', `The person did not allow loading the skill "${question.held.entry.frontmatter.name}".`);
    if (decision === 'always' && question.files !== 'dynamic') this.grant(question.held);
  }

  /** Pins an approval to the entry as it is now (a dynamic skill cannot be pinned). */
  grant(held: HeldSkill): readonly PinnedFile[] {
    const files = filesOf(held.entry);
    if (!files) throw new HarborError('BAD_REQUEST', `The skill at ${held.entry.uri} on "${held.server.name}" is dynamic: its files cannot be pinned, so it is approved at each load instead.`);
    this.store.grant(held.server, held.entry.uri, held.entry.frontmatter.name, files);
    return files;
  }

  revoke(identity: string, uri?: string): number {
    return this.store.revoke(identity, uri);
  }
}
