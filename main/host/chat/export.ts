import type { ChatItem, Conversation } from '../../../preload/contract';

export interface ExportedConversation {
  readonly filename: string;
  readonly mimeType: string;
  readonly content: string;
}

function slug(title: string): string {
  const s = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50);
  return s || 'conversation';
}

/** A fence longer than any run of backticks in the text, so server output cannot break out of it. */
function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

function contentText(content: readonly unknown[]): string {
  return content
    .map((block) => {
      const b = block as { type?: string; text?: string; uri?: string; mimeType?: string; resource?: { uri?: string; text?: string } };
      if (b.type === 'text') return b.text ?? '';
      if (b.type === 'resource_link') return `[resource link: ${b.uri ?? ''}]`;
      if (b.type === 'resource') return b.resource?.text ?? `[resource: ${b.resource?.uri ?? ''}]`;
      return `[${b.type ?? 'content'}${b.mimeType ? ` ${b.mimeType}` : ''}]`;
    })
    .join('\n');
}

function itemMarkdown(item: ChatItem): string {
  switch (item.kind) {
    case 'user': {
      const attached = (item.attachments ?? []).map((a) => `- attached \`${a.uri}\` from ${a.server}`);
      return [`**You:**\n\n${item.text}`, ...(attached.length ? ['', ...attached] : [])].join('\n');
    }
    case 'assistant':
      return `**Assistant:**\n\n${item.text}`;
    case 'note':
      return `> _${item.text}_`;
    case 'missing':
      return item.servers.map((m) => `> _Not available this turn — ${m.server}: ${m.reason}_`).join('\n');
    case 'toolCall': {
      const c = item.call;
      const target = c.server && c.tool ? `${c.server} › ${c.tool}` : c.name;
      const lines = [`**Tool call** \`${target}\` — ${c.status}${c.approval ? ` (${c.approval})` : ''}`, '', fence(JSON.stringify(c.arguments, null, 2), 'json')];
      if (c.result) lines.push('', c.result.isError ? 'Result (error):' : 'Result:', '', fence(contentText(c.result.content)));
      if (c.error) lines.push('', `Error ${c.error.code}: ${c.error.message}`);
      return lines.join('\n');
    }
  }
}

/** Markdown for people (tool output fenced, never rendered as markup) or the full JSON record. */
export function exportConversation(conversation: Conversation, format: 'markdown' | 'json'): ExportedConversation {
  const base = slug(conversation.title);
  if (format === 'json') {
    return { filename: `${base}.json`, mimeType: 'application/json', content: `${JSON.stringify(conversation, null, 2)}\n` };
  }
  const parts = [`# ${conversation.title.replace(/\n/g, ' ')}`, '', `_Exported from Harbor — ${new Date(conversation.updatedAt).toISOString()}_`];
  for (const turn of conversation.turns) {
    for (const item of turn.items) parts.push('', itemMarkdown(item));
    if (turn.error && !turn.items.some((i) => i.kind === 'note')) parts.push('', `> _${turn.error.code}: ${turn.error.message}_`);
  }
  return { filename: `${base}.md`, mimeType: 'text/markdown', content: `${parts.join('\n')}\n` };
}
