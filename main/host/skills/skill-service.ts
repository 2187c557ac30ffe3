import type { ServerRef } from '../consent/identity';
import { HarborError } from '../errors';
import type { LogSink } from '../log/harbor-log';
import type { CallOptions } from '../servers/connection-types';
import type { SkillApproval } from './approvals';
import type { SkillFileCache } from './file-cache';
import { SkillDiscovery, type HeldSkill, type SkillConnection } from './skill-catalog';
import type { SkillConsent, SkillQuestion, SkillStanding } from './skill-consent';
import { filesOf, overLimits, resolveSkillFile, skillRoot, totalBytes, type PinnedFile } from './skill-files';
import { SkillReader, type SkillFileRead } from './skill-reader';

/** One skill as lists show it (`harbor skills`, the Skills page, the model's index). */
export interface SkillView {
  readonly server: string;
  readonly name: string;
  readonly uri: string;
  readonly description: string;
  /** How many files the entry lists, or "dynamic". */
  readonly files: number | 'dynamic';
  readonly bytes?: number;
  /** Known only once read: true when every file is in the verified cache, false after a failure (and always for a dynamic skill). */
  readonly verified?: boolean;
  readonly approved: boolean;
  readonly standing: SkillStanding['kind'];
  /** Over the extension's limits: it will not be loaded. */
  readonly problem?: string;
}

/** A skill's files for "view files" (the contract's SkillFilesData). */
export interface SkillFiles {
  readonly server: string;
  readonly uri: string;
  readonly name: string;
  readonly frontmatter: Record<string, unknown>;
  readonly files: { path: string; uri: string; size: number; digest: string }[] | 'dynamic';
  readonly text?: string;
  readonly changes?: string[];
}

/** Which skill: always with its server (the identity is the pair), by name or by SKILL.md URI. */
export interface SkillRef {
  readonly server: string;
  readonly name?: string;
  readonly uri?: string;
}

export interface SkillLoadOptions extends CallOptions {
  /** `--yes`: the person allowed this load up front. */
  readonly approveOnce?: boolean;
  /** The conversation whose model loads it (the question names it). */
  readonly conversationId?: string;
}

export interface LoadedSkill {
  readonly server: string;
  readonly uri: string;
  readonly name: string;
  readonly description: string;
  readonly text: string;
  readonly verified: boolean;
  readonly files: readonly PinnedFile[] | 'dynamic';
}

export interface SkillServiceDeps {
  /** The server's connection, connecting it if needed. */
  readonly connect: (server: string) => Promise<SkillConnection>;
  readonly ref: (server: string) => ServerRef;
  readonly consent: SkillConsent;
  readonly cache: SkillFileCache;
  readonly approvals: () => SkillApproval[];
  readonly log: LogSink;
}

/**
 * The Skills extension, Harbor's side: discovery (skills/list, skills/get), loading a skill's
 * SKILL.md and its supporting files — each verified, through the cache, never before a load —
 * and the consent that binds an approval to a skill's content. Identity is (server identity, URI).
 */
export class SkillService {
  private readonly discovery: SkillDiscovery;
  private readonly reader: SkillReader;
  /** (identity, URI) → the files of the entry a read failed against: shown as not verified while it is served. */
  private readonly failures = new Map<string, string>();

  constructor(private readonly deps: SkillServiceDeps) {
    this.discovery = new SkillDiscovery(deps.log);
    this.reader = new SkillReader(deps.cache, deps.log);
  }

  /** Every skill of one server (connected if needed); none when it does not publish skills. */
  async list(server: string, options: CallOptions = {}): Promise<SkillView[]> {
    try {
      const connection = await this.deps.connect(server);
      const held = await this.discovery.list(this.deps.ref(server), connection, options);
      return held.map((skill) => this.view(skill));
    } catch (error) {
      // Logged here because the chat goes on without this server's skills (turn-skills.ts).
      this.deps.log.write('warn', { area: 'skills', server, message: 'listing its skills failed', error });
      throw error;
    }
  }

  /**
   * Loads a skill: its entry (fresh), the limits, consent (asked, or refused where no one can be
   * asked, before anything is read), then SKILL.md, verified. The person is shown the text before
   * it reaches the model.
   */
  async load(ref: SkillRef, options: SkillLoadOptions = {}): Promise<LoadedSkill> {
    const { held, connection } = await this.find(ref, options);
    const problem = overLimits(held.entry);
    if (problem) throw this.refuseOverLimits(held, problem);
    const standing = this.deps.consent.standing(held);
    const asked = standing.kind !== 'approved' && !options.approveOnce;
    if (asked && !this.deps.consent.canAsk) throw this.deps.consent.refusal(held, standing);
    const read = await this.readTracked(held, connection, undefined, options);
    if (asked) await this.deps.consent.decide(question(held, read.text, standing, options), standing);
    return {
      server: held.server.name,
      uri: held.entry.uri,
      name: held.entry.frontmatter.name,
      description: held.entry.frontmatter.description,
      text: read.text ?? '',
      verified: read.verified,
      files: filesOf(held.entry) ?? 'dynamic',
    };
  }

  /**
   * A supporting file of a skill: `path` relative to the skill's root, and only a file the entry
   * lists (a nested skill's files are its own). Same consent as loading the skill.
   */
  async readFile(ref: SkillRef, path: string, options: SkillLoadOptions = {}): Promise<SkillFileRead> {
    const { held, connection } = await this.find(ref, options);
    const problem = overLimits(held.entry);
    if (problem) throw this.refuseOverLimits(held, problem);
    if (held.entry.resources === 'dynamic') {
      throw new HarborError('BAD_REQUEST', `The skill "${held.entry.frontmatter.name}" is dynamic: it lists no files, so Harbor reads none of its supporting files.`);
    }
    const file = resolveSkillFile(held.entry, path);
    if (!file) {
      const listed = (filesOf(held.entry) ?? []).map((f) => f.uri.slice(held.entry.uri.length - 'SKILL.md'.length)).join(', ');
      throw new HarborError('BAD_REQUEST', `"${path}" is not a file of the skill "${held.entry.frontmatter.name}". Its files: ${listed}.`);
    }
    const standing = this.deps.consent.standing(held);
    // Asked like a load (in the app), without SKILL.md's text: nothing is read ahead of the person's answer.
    if (standing.kind !== 'approved' && !options.approveOnce) await this.deps.consent.decide(question(held, undefined, standing, options), standing);
    return this.readTracked(held, connection, file, options);
  }

  /**
   * "View files": the entry's files with sizes and digests, where the person stands, and SKILL.md's
   * text only when it is already in the verified cache — nothing is read from the server here.
   */
  async files(server: string, uri: string, options: CallOptions = {}): Promise<SkillFiles> {
    const { held } = await this.find({ server, uri }, options);
    const { entry } = held;
    const files = filesOf(entry);
    const root = skillRoot(entry);
    const manifest = files?.find((file) => file.uri === entry.uri);
    const cached = manifest ? this.deps.cache.get(held.server.identity, manifest, entry.frontmatter) : undefined;
    const standing = this.deps.consent.standing(held);
    return {
      server: held.server.name,
      uri: entry.uri,
      name: entry.frontmatter.name,
      frontmatter: { ...entry.frontmatter },
      files: files ? files.map((file) => ({ path: file.uri.startsWith(root) ? file.uri.slice(root.length) : file.uri, uri: file.uri, size: file.size, digest: file.digest })) : 'dynamic',
      ...(cached?.text !== undefined ? { text: cached.text } : {}),
      ...(standing.kind === 'changed' ? { changes: [...standing.changes] } : {}),
    };
  }

  /** `harbor consent grant-skill`: pins an approval to the skill's entry as the server serves it now. */
  async grant(server: string, uri: string): Promise<readonly PinnedFile[]> {
    const { held } = await this.find({ server, uri });
    return this.deps.consent.grant(held);
  }

  revoke(server: string, uri?: string): number {
    return this.deps.consent.revoke(this.deps.ref(server).identity, uri);
  }

  approvals(): SkillApproval[] {
    return this.deps.approvals();
  }

  private async find(ref: SkillRef, options: CallOptions = {}): Promise<{ held: HeldSkill; connection: SkillConnection }> {
    const server = this.deps.ref(ref.server);
    const connection = await this.deps.connect(ref.server);
    const listed = await this.discovery.list(server, connection, options);
    if (ref.uri !== undefined) {
      const held = listed.find((skill) => skill.entry.uri === ref.uri) ?? (await this.discovery.get(server, connection, ref.uri, options));
      return { held, connection };
    }
    const named = listed.filter((skill) => skill.entry.frontmatter.name === ref.name);
    if (named.length === 1) return { held: named[0]!, connection };
    if (named.length > 1) {
      throw new HarborError('BAD_REQUEST', `"${ref.server}" has ${named.length} skills named "${ref.name}": ${named.map((s) => s.entry.uri).join(', ')}. Name one by its "uri".`);
    }
    const known = listed.map((skill) => skill.entry.frontmatter.name).join(', ') || '(none)';
    throw new HarborError('BAD_REQUEST', `"${ref.server}" has no skill named "${ref.name ?? ''}". Its skills: ${known}.`);
  }

  private async readTracked(held: HeldSkill, connection: SkillConnection, file: PinnedFile | undefined, options: CallOptions): Promise<SkillFileRead> {
    try {
      return await this.reader.read(held, connection, file, options);
    } catch (error) {
      if (error instanceof HarborError && error.code === 'PROTOCOL_ERROR') this.failures.set(keyOf(held), signatureOf(held));
      throw error;
    }
  }

  private refuseOverLimits(held: HeldSkill, problem: string): HarborError {
    const error = new HarborError('PROTOCOL_ERROR', `The skill "${held.entry.frontmatter.name}" on "${held.server.name}" is over the Skills extension's limits: ${problem}. Nothing of it was read.`);
    this.deps.log.write('warn', { area: 'skills', server: held.server.name, message: error.message, code: 'SKILL_LIMITS', fields: { uri: held.entry.uri } });
    return error;
  }

  private view(held: HeldSkill): SkillView {
    const { entry, server } = held;
    const files = filesOf(entry);
    const standing = this.deps.consent.standing(held);
    const problem = overLimits(entry);
    const bytes = totalBytes(entry);
    return {
      server: server.name,
      name: entry.frontmatter.name,
      uri: entry.uri,
      description: entry.frontmatter.description,
      files: files ? files.length : 'dynamic',
      ...(bytes !== undefined ? { bytes } : {}),
      ...this.verifiedOf(held, files),
      approved: standing.kind === 'approved',
      standing: standing.kind,
      ...(problem ? { problem } : {}),
    };
  }

  private verifiedOf(held: HeldSkill, files: readonly PinnedFile[] | undefined): { verified?: boolean } {
    if (!files) return { verified: false };
    if (this.failures.get(keyOf(held)) === signatureOf(held)) return { verified: false };
    const all = files.every((file) => this.deps.cache.get(held.server.identity, file, file.uri === held.entry.uri ? held.entry.frontmatter : undefined));
    return all ? { verified: true } : {};
  }
}

/** What the person is asked before `held` enters the model's context. */
function question(held: HeldSkill, text: string | undefined, standing: SkillStanding, options: SkillLoadOptions): SkillQuestion {
  return {
    held,
    files: filesOf(held.entry) ?? 'dynamic',
    text,
    ...(standing.kind === 'changed' ? { changes: standing.changes, approved: standing.approved } : {}),
    ...(options.conversationId ? { conversationId: options.conversationId } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

const keyOf = (held: HeldSkill) => `${held.server.identity}\n${held.entry.uri}`;
const signatureOf = (held: HeldSkill) => JSON.stringify(filesOf(held.entry) ?? 'dynamic');
