/** Consent: what the person is asked before a tool runs or a server launches, and what they decided. */
import { z } from 'zod';

/**
 * app-session: "Allow this App to use SERVER's tools for this session" — offered only on an App's
 * own call (requester kind "app"): that App (its server as configured, its ui:// resource), the
 * tools of its server it may call, as they are defined now, until Harbor quits. Never written.
 */
export const ConsentChoice = z.enum(['once', 'conversation', 'always', 'deny', 'app-session']);
export type ConsentChoice = z.infer<typeof ConsentChoice>;

/**
 * Who asks for a tool call: the person (a tool run by hand, `harbor call`), the model in a
 * conversation, a script the model wrote (code mode), an App (which one: its server, the tool
 * whose result it shows), or a task.
 */
export const ConsentRequester = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('person') }),
  /** toolCallId: the model's call (for code, the run_code call) the question is about, so a chat shows it with that call. */
  z.object({ kind: z.literal('model'), conversationId: z.string().optional(), toolCallId: z.string().optional() }),
  z.object({ kind: z.literal('code'), conversationId: z.string().optional(), toolCallId: z.string().optional() }),
  z.object({
    kind: z.literal('app'),
    /** The server whose App it is, and the tool whose result it shows. */
    server: z.string(),
    tool: z.string().optional(),
    /** The App's ui:// resource: with its server, what the session grant ("app-session") covers. */
    uri: z.string().optional(),
    instanceId: z.string(),
    conversationId: z.string().optional(),
  }),
  z.object({ kind: z.literal('task'), taskId: z.string().optional() }),
]);
export type ConsentRequester = z.infer<typeof ConsentRequester>;

/** What the person is asked: everything needed to decide, as plain data (never HTML). */
export const ConsentRequest = z.object({
  id: z.string(),
  /** tool: a call; launch: starting a stdio server or first reaching a remote one; secret: giving a server a keychain secret; skill: loading a server's skill into the model's context. */
  kind: z.enum(['tool', 'launch', 'secret', 'skill']),
  /** The server as the person configured it, and whether they marked it trusted. */
  server: z.string(),
  trusted: z.boolean(),
  /** Epoch ms; after it the request counts as denied. */
  deadline: z.number(),
  options: z.array(ConsentChoice),
  conversationId: z.string().optional(),
  /** A tool call: who asks for it (absent on launches and secrets). */
  requester: ConsentRequester.optional(),
  tool: z
    .object({
      name: z.string(),
      title: z.string().optional(),
      description: z.string(),
      annotations: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  /** The exact arguments: this is how data leaves the conversation. */
  arguments: z.record(z.string(), z.unknown()).optional(),
  /** Rug pull: the definition changed since it was approved. */
  stale: z.object({ changed: z.array(z.string()), before: z.unknown(), after: z.unknown() }).optional(),
  /** Launch consent: the exact command line and the names (not values) of its env. */
  launch: z.object({ commandLine: z.string(), envNames: z.array(z.string()), cwd: z.string().optional() }).optional(),
  /** Launch consent of a remote server: the address requests go to and the names (not values) of the headers they carry. */
  remote: z.object({ url: z.string(), headerNames: z.array(z.string()), legacySse: z.boolean().optional() }).optional(),
  /**
   * Secret grant: a server references a keychain secret that was not set for it. Which secret,
   * where the server would get it (env variables or headers, by name), and what the server is
   * (its command line or URL).
   */
  /** What looks like something else about the server: its name or its URL's host mixes scripts (set by the Host on every question). */
  lookalike: z.array(z.string()).optional(),
  /** A secret grant; field "oauth": a sign-in setting, sent to the authorization server the remote names. */
  secret: z.object({ name: z.string(), field: z.enum(['env', 'headers', 'oauth']), keys: z.array(z.string()), target: z.string() }).optional(),
  /**
   * A skill load: the skill as its server's entry describes it (frontmatter, every file with its
   * size, or "dynamic": generated, unverifiable), SKILL.md's text once read and verified, and — when
   * its files changed since an "always" — what changed, one line per file (the diff is in `stale`,
   * per file path: "N bytes, sha256:…" before and now).
   */
  skill: z
    .object({
      name: z.string(),
      uri: z.string(),
      description: z.string(),
      frontmatter: z.record(z.string(), z.unknown()),
      files: z.union([z.array(z.object({ path: z.string(), uri: z.string(), size: z.number().int() })), z.literal('dynamic')]),
      text: z.string().optional(),
      changes: z.array(z.string()).optional(),
    })
    .optional(),
});
export type ConsentRequest = z.infer<typeof ConsentRequest>;

export const ConsentDecisions = z.object({
  approvals: z.array(
    z.object({ server: z.string(), tool: z.string(), kind: z.enum(['always', 'once']), fingerprint: z.string(), createdAt: z.number() }),
  ),
  launches: z.array(z.object({ server: z.string(), commandLine: z.string(), createdAt: z.number() })),
  changes: z.array(z.object({ server: z.string(), tool: z.string(), changed: z.array(z.string()), at: z.number() })),
  /** Which servers each keychain secret belongs to: set for them, granted by the person, or carried over from before. */
  secrets: z.array(z.object({ secret: z.string(), server: z.string(), origin: z.enum(['set', 'granted', 'migrated']), createdAt: z.number() })),
});
export type ConsentDecisions = z.infer<typeof ConsentDecisions>;

/** A per-server ("*") or per-tool override of the consent tiers. */
export const ConsentPolicyMode = z.enum(['ask', 'allow', 'deny']);
export type ConsentPolicyMode = z.infer<typeof ConsentPolicyMode>;
