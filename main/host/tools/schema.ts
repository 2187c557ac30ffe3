/** A JSON Schema object as providers take it for a tool's parameters. */
export type JsonObjectSchema = { type: 'object'; properties: Record<string, unknown> } & Record<string, unknown>;

/**
 * An MCP inputSchema made acceptable to every provider: always `type: "object"` with
 * `properties` (some APIs reject a bare `{type: "object"}`), and no `$schema` key (some reject it).
 * Anything else is passed as the server wrote it; the server validates the arguments.
 */
export function providerInputSchema(schema: unknown): JsonObjectSchema {
  const source = schema && typeof schema === 'object' && !Array.isArray(schema) ? (schema as Record<string, unknown>) : {};
  const { $schema: _ignored, ...rest } = source;
  const properties =
    rest.properties && typeof rest.properties === 'object' && !Array.isArray(rest.properties) ? (rest.properties as Record<string, unknown>) : {};
  return { ...rest, type: 'object', properties };
}
