/** Settings: the chat model and the chat loop's limits. */
import { z } from 'zod';

export const ModelProvider = z.enum(['anthropic', 'openai', 'openai-compatible']);
export type ModelProvider = z.infer<typeof ModelProvider>;

/** The chat settings the person set; a field left out takes its default. */
export const ChatSettingsData = z.object({
  maxSteps: z.number().int().positive().optional(),
  resultCapBytes: z.number().int().positive().optional(),
  toolSearch: z.enum(['auto', 'on', 'off']).optional(),
  toolSearchThreshold: z.number().positive().max(1).optional(),
  /** Code mode: run_code beside the tools (auto, the default), instead of them (on), or never (off). */
  codeMode: z.enum(['auto', 'on', 'off']).optional(),
});

/** The Settings page: the model (its key only as "where it comes from"), chat settings and their defaults. */
export const SettingsData = z.object({
  model: z
    .object({
      provider: ModelProvider,
      model: z.string(),
      baseURL: z.string().optional(),
      contextWindow: z.number().int().optional(),
      apiKey: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('secret'), secret: z.string(), set: z.boolean().optional() }),
        z.object({ kind: z.literal('env'), variable: z.string().optional() }),
        z.object({ kind: z.literal('literal') }),
      ]),
    })
    .optional(),
  chat: ChatSettingsData,
  /** The registry's toolsets: name → "SERVER/TOOL" and "SERVER/*" entries. */
  toolsets: z.record(z.string(), z.array(z.string())).optional(),
  defaults: z.object({
    maxSteps: z.number().int(),
    resultCapBytes: z.number().int(),
    toolSearch: z.literal('auto'),
    toolSearchThreshold: z.number(),
    contextWindow: z.number().int(),
    requestTimeoutMs: z.number().int(),
  }),
});
export type SettingsData = z.infer<typeof SettingsData>;
