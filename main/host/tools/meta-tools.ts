import type { JsonObjectSchema } from './schema';

/**
 * The two meta-tools of progressive discovery. Their definitions are constants, so the tool array
 * the model sees never changes during a conversation (prompt-cache friendly); which servers are
 * connected is said in the system prompt instead.
 */
export const SEARCH_TOOLS = 'search_tools';
export const CALL_TOOL = 'call_tool';

export interface MetaToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObjectSchema;
}

export const META_TOOLS: readonly MetaToolDefinition[] = [
  {
    name: SEARCH_TOOLS,
    description:
      'Search the tools of the connected MCP servers by keywords. Returns the best matches with their name, server, description and input schema. Then call one with call_tool.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Keywords describing what you want to do, e.g. "add numbers" or "read file".' },
        limit: { type: 'integer', minimum: 1, maximum: 20, description: 'How many matches to return (default 5).' },
      },
      required: ['query'],
    },
  },
  {
    name: CALL_TOOL,
    description: 'Call a tool found with search_tools, by its exact name, with arguments that match its input schema.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The tool name exactly as search_tools returned it.' },
        arguments: { type: 'object', description: "The tool's arguments.", additionalProperties: true },
      },
      required: ['name'],
    },
  },
];
