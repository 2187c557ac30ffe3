import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';

type Block = CallToolResult['content'][number];

/** Plain-text rendering of MCP content for a terminal: text as is, binary as a short note. */
export function renderBlock(block: Block): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
    case 'resource_link':
      return `[resource: ${block.uri}${block.name ? ` (${block.name})` : ''}]`;
    case 'resource': {
      const r = block.resource;
      return 'text' in r && typeof r.text === 'string' ? r.text : `[resource: ${r.uri}, binary]`;
    }
    default:
      return `[${(block as { type: string }).type}]`;
  }
}

export function renderToolResult(result: CallToolResult): string {
  const parts = result.content.map(renderBlock);
  if (result.structuredContent !== undefined && parts.length === 0) parts.push(JSON.stringify(result.structuredContent, null, 2));
  return parts.join('\n');
}

export function renderResource(result: ReadResourceResult): string {
  return result.contents
    .map((c) => ('text' in c && typeof c.text === 'string' ? c.text : `[${c.uri}: ${c.mimeType ?? 'binary'}, base64 ${String((c as { blob?: string }).blob?.length ?? 0)} chars]`))
    .join('\n');
}

export function renderPrompt(result: GetPromptResult): string {
  return result.messages.map((m) => `${m.role}: ${renderBlock(m.content as Block)}`).join('\n\n');
}
