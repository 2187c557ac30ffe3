import type { ElicitResult } from '@modelcontextprotocol/client';
import type { JsonSchemaValidator } from '../json-schema';
import { describeProblems, type SchemaProblem } from '../schema-problems';

export type ElicitationContent = NonNullable<ElicitResult['content']>;

export type CheckedAnswer =
  /** `content` has the schema's defaults filled in and no field the schema does not ask for; `dropped` names those. */
  | { readonly ok: true; readonly content: ElicitationContent; readonly dropped: readonly string[] }
  | { readonly ok: false; readonly problems: readonly SchemaProblem[]; readonly message: string };

/**
 * Checks a form answer against the schema the server asked with, before it is sent: a field the
 * schema does not ask for is dropped (and named), the schema's defaults fill what was left out,
 * and anything else wrong — a missing required field, a wrong type, a number out of range, a bad
 * email — is a problem naming the field and what was expected. Nothing invalid reaches a server.
 */
export function checkElicitationAnswer(validator: JsonSchemaValidator, requestedSchema: unknown, content: unknown): CheckedAnswer {
  if (content !== undefined && (typeof content !== 'object' || content === null || Array.isArray(content))) {
    const problems = [{ path: '', message: 'must be a JSON object of field values' }];
    return { ok: false, problems, message: describeProblems(problems, 'the answer') };
  }
  const given = (content ?? {}) as Record<string, unknown>;
  const schema = requestedSchema && typeof requestedSchema === 'object' ? (requestedSchema as { properties?: unknown }) : {};
  const asked = schema.properties && typeof schema.properties === 'object' ? new Set(Object.keys(schema.properties)) : new Set<string>();
  const dropped = Object.keys(given).filter((key) => !asked.has(key));
  const kept = Object.fromEntries(Object.entries(given).filter(([key]) => asked.has(key)));
  const check = validator.validate(requestedSchema ?? { type: 'object' }, kept, { applyDefaults: true });
  if (!check.valid) return { ok: false, problems: check.problems, message: describeProblems(check.problems, 'the answer') };
  return { ok: true, content: check.value as ElicitationContent, dropped };
}
