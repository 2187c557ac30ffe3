import type { ConsentChoice, ConsentRequest } from '../../../preload/contract';
import type { ConsentQuestions } from '../consent/pending';
import type { SkillAsk, SkillDecision, SkillQuestion } from './skill-consent';
import { skillRoot, type PinnedFile } from './skill-files';

/** A file's path inside its skill's folder (its URI when it lies elsewhere). */
function pathIn(root: string, uri: string): string {
  return uri.startsWith(root) ? uri.slice(root.length) : uri;
}

/** Each file as one line of the diff: path → "N bytes, sha256:…". */
function byPath(root: string, files: readonly PinnedFile[]): Record<string, string> {
  return Object.fromEntries(files.map((file) => [pathIn(root, file.uri), `${file.size} bytes, ${file.digest}`]));
}

/**
 * The consent question of a skill load, as the person sees it: the server, the entry's frontmatter,
 * every file with its size (or "dynamic"), SKILL.md's text once read, and what changed since an
 * "always" — per file, before and now, in the shape the tool diff shows. A dynamic skill cannot be
 * pinned, so "always" is not offered for it.
 */
export function skillRequest(question: SkillQuestion, trusted: boolean): Omit<ConsentRequest, 'id' | 'deadline'> {
  const { entry, server } = question.held;
  const root = skillRoot(entry);
  const files = question.files === 'dynamic' ? ('dynamic' as const) : question.files.map((file) => ({ path: pathIn(root, file.uri), uri: file.uri, size: file.size }));
  const stale =
    question.approved && question.files !== 'dynamic'
      ? (() => {
          const before = byPath(root, question.approved);
          const after = byPath(root, question.files);
          const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((path) => before[path] !== after[path]);
          return { stale: { changed, before, after } };
        })()
      : {};
  return {
    kind: 'skill',
    server: server.name,
    trusted,
    options: question.files === 'dynamic' ? ['once', 'deny'] : ['once', 'always', 'deny'],
    ...(question.conversationId ? { conversationId: question.conversationId, requester: { kind: 'model' as const, conversationId: question.conversationId } } : {}),
    skill: {
      name: entry.frontmatter.name,
      uri: entry.uri,
      description: entry.frontmatter.description,
      frontmatter: { ...entry.frontmatter },
      files,
      ...(question.text !== undefined ? { text: question.text } : {}),
      ...(question.changes ? { changes: [...question.changes] } : {}),
    },
    ...stale,
  };
}

/** Asks a skill question through the Host's one consent queue (the app's dialog). */
export function askThroughQueue(questions: ConsentQuestions, trusted: (server: string) => boolean): SkillAsk {
  return async (question) => {
    const choice: ConsentChoice = await questions.ask(skillRequest(question, trusted(question.held.server.name)), question.signal);
    // "conversation" and "app-session" are never offered for a skill; the queue's check refuses them before they get here.
    const decisions: Record<ConsentChoice, SkillDecision> = { once: 'once', always: 'always', deny: 'deny', conversation: 'deny', 'app-session': 'deny' };
    return decisions[choice];
  };
}
