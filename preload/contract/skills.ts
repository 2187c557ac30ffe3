/**
 * Skills (the `io.modelcontextprotocol/skills` extension) in the app: each server's skills with
 * where the person stands on each, a skill's files as its entry lists them (SKILL.md's text only
 * when Harbor has already read and verified it: the page never reads ahead), approve and revoke.
 * Identity is the pair (server, URI) everywhere.
 */
import { z } from 'zod';

/** approved: pinned to the files as served now; changed: approved, but a file changed since; unapproved; dynamic: no files to pin, asked at every load. */
export const SkillStandingKind = z.enum(['approved', 'changed', 'unapproved', 'dynamic']);

export const SkillViewData = z.object({
  server: z.string(),
  name: z.string(),
  uri: z.string(),
  description: z.string(),
  files: z.union([z.number().int(), z.literal('dynamic')]),
  bytes: z.number().int().optional(),
  /** Known once read: every file verified (true), a verification failed (false); always false for a dynamic skill. */
  verified: z.boolean().optional(),
  approved: z.boolean(),
  standing: SkillStandingKind,
  /** Over the extension's limits: never loaded. */
  problem: z.string().optional(),
});
export type SkillViewData = z.infer<typeof SkillViewData>;

/** One ready server's skills, or why they could not be listed. */
export const SkillServerData = z.object({ server: z.string(), skills: z.array(SkillViewData), error: z.string().optional() });
export type SkillServerData = z.infer<typeof SkillServerData>;

export const SkillFilesData = z.object({
  server: z.string(),
  uri: z.string(),
  name: z.string(),
  frontmatter: z.record(z.string(), z.unknown()),
  files: z.union([z.array(z.object({ path: z.string(), uri: z.string(), size: z.number().int(), digest: z.string() })), z.literal('dynamic')]),
  /** SKILL.md as read and verified earlier (from Harbor's cache); absent until a load has read it. */
  text: z.string().optional(),
  /** Approved, then changed: one line per file. */
  changes: z.array(z.string()).optional(),
});
export type SkillFilesData = z.infer<typeof SkillFilesData>;

const SkillRef = z.object({ server: z.string().min(1).max(100), uri: z.string().min(1).max(2048) }).strict();

export const skillCommands = {
  /** The skills of every ready server (listing reads nothing of a skill's files). */
  'skills.list': { request: z.object({}).strict(), response: z.array(SkillServerData) },
  /** "View files": the entry's file list with sizes; SKILL.md's text only if it was already read. */
  'skills.files': { request: SkillRef, response: SkillFilesData },
  /** "Always for this skill": pinned to the entry's files as the server lists them now. */
  'skills.grant': { request: SkillRef, response: z.object({ files: z.number().int() }) },
  'skills.revoke': { request: SkillRef, response: z.object({ removed: z.number().int() }) },
};
