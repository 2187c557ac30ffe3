import type { SkillVerificationError } from '@modelcontextprotocol/client/ext/skills';
import { HarborError } from '../errors';
import type { LogSink } from '../log/harbor-log';
import type { CallOptions } from '../servers/connection-types';
import type { SkillFileCache } from './file-cache';
import { skillsClientOf, skillsExtension, type HeldSkill, type SkillConnection } from './skill-catalog';
import { filesOf, type PinnedFile } from './skill-files';

/** One file of a skill as Harbor hands it on: checked against the entry (or unverifiable: a dynamic skill). */
export interface SkillFileRead {
  readonly uri: string;
  /** The text, or undefined for bytes that are not text. */
  readonly text: string | undefined;
  readonly size: number;
  /** Size and digest matched the entry. False only for a `"dynamic"` skill, which publishes none. */
  readonly verified: boolean;
  /** Served from the verified-file cache (no request to the server). */
  readonly cached: boolean;
}

/** A file of `held` failed verification: the content is never used. */
export function verificationFailure(held: HeldSkill, error: SkillVerificationError): HarborError {
  const why = error.reason === 'unlisted' ? 'it is not a file of the skill' : error.reason === 'frontmatter' ? "its frontmatter differs from the server's entry" : `its ${error.reason} differs from the server's entry`;
  return new HarborError(
    'PROTOCOL_ERROR',
    `The skill "${held.entry.frontmatter.name}" on "${held.server.name}" failed verification: ${error.uri} — ${why}. Its content was not used.`,
    [error.message, ...error.differences].join('\n'),
  );
}

/**
 * Reads one file of a skill and verifies it (the SDK's SkillsClient.read: listed, size, digest,
 * and for SKILL.md the frontmatter), through the verified-file cache. A failure is written to
 * Harbor's log and thrown as PROTOCOL_ERROR naming the file and why.
 */
export class SkillReader {
  constructor(
    private readonly cache: SkillFileCache,
    private readonly log: LogSink,
  ) {}

  /** `file` undefined: the skill's own SKILL.md. */
  async read(held: HeldSkill, connection: SkillConnection, file: PinnedFile | undefined, options: CallOptions = {}): Promise<SkillFileRead> {
    const { entry, server } = held;
    const manifest = file === undefined || file.uri === entry.uri;
    const pinned = file ?? filesOf(entry)?.find((candidate) => candidate.uri === entry.uri);
    if (pinned) {
      const hit = this.cache.get(server.identity, pinned, manifest ? entry.frontmatter : undefined);
      if (hit) return { uri: pinned.uri, text: hit.text, size: hit.bytes.byteLength, verified: true, cached: true };
    }
    const uri = file?.uri ?? entry.uri;
    const { SkillVerificationError } = await skillsExtension();
    // A verification failure comes back as a value: the request's own error handling would turn it into a failure of the server.
    const read = await connection.requestOn(`reading skill file ${uri}`, options, async (client, requestOptions) =>
      (await skillsClientOf(client)).read(entry, uri, requestOptions).catch((error: unknown) => {
        if (error instanceof SkillVerificationError) return error;
        throw error;
      }),
    );
    if (read instanceof SkillVerificationError) {
      const failure = verificationFailure(held, read);
      this.log.write('warn', { area: 'skills', server: server.name, message: failure.message, code: 'SKILL_VERIFICATION', fields: { uri: read.uri, reason: read.reason } });
      throw failure;
    }
    if (read.verified && pinned) this.cache.put(server.identity, pinned, read.bytes, manifest ? entry.frontmatter : undefined);
    return { uri, text: read.text ?? textOf(read.bytes), size: read.bytes.byteLength, verified: read.verified, cached: false };
  }
}

/** Bytes that decode as UTF-8 text, else undefined. */
function textOf(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined; // binary: the caller says so instead of showing bytes
  }
}
