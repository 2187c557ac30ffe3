import { z } from 'zod';

/** A database column holding JSON text that must parse to a value of `schema` (a row read back is parsed, never cast). */
export const jsonColumn = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'not valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);
