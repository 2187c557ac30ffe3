import { describe, expect, it } from 'vitest';
import { keywords, searchTools } from '../../main/host/tools/search';
import { ToolIndex } from '../../main/host/tools/tool-index';

const index = ToolIndex.build([
  {
    server: 'github',
    tools: [
      { name: 'create_issue', title: 'Create issue', description: 'Open a new issue in a repository.', inputSchema: { type: 'object' } },
      { name: 'list_issues', description: 'List the issues of a repository.', inputSchema: { type: 'object' } },
      { name: 'get_file_contents', description: 'Read a file from a repository.', inputSchema: { type: 'object' } },
    ],
  },
  {
    server: 'filesystem',
    tools: [
      { name: 'read_file', description: 'Read the complete contents of a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
      { name: 'write_file', description: 'Create or overwrite a file.', inputSchema: { type: 'object' } },
    ],
  },
  { server: 'math', tools: [{ name: 'getSum', description: 'Returns the sum of two numbers', inputSchema: { type: 'object' } }] },
]);

describe('search_tools ranking', () => {
  it('splits names into words, drops stop words and plural s', () => {
    expect(keywords('getSum read_file list-issues The Files')).toEqual(['sum', 'read', 'file', 'list', 'issue', 'file']);
  });

  it('finds the tool whose name says it first', () => {
    const files = searchTools(index.tools, 'read file').map((h) => h.name);
    expect(files[0]).toBe('filesystem__read_file');
    expect(files.slice(1, 3)).toContain('github__get_file_contents');
    expect(searchTools(index.tools, 'create an issue')[0]!.name).toBe('github__create_issue');
    expect(searchTools(index.tools, 'sum of numbers')[0]).toMatchObject({ name: 'math__getSum', server: 'math', tool: 'getSum' });
  });

  it('uses server names too', () => {
    expect(searchTools(index.tools, 'github').map((h) => h.server)).toEqual(['github', 'github', 'github']);
  });

  it('returns name, server, description and input schema, within the limit', () => {
    const hits = searchTools(index.tools, 'file', 2);
    expect(hits).toHaveLength(2);
    expect(hits[0]).toEqual({
      name: 'filesystem__read_file',
      server: 'filesystem',
      tool: 'read_file',
      description: 'Read the complete contents of a file.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      score: expect.any(Number),
    });
    expect(searchTools(index.tools, 'file', 500).length).toBeLessThanOrEqual(20);
  });

  it('is deterministic: ties break by name, every run the same', () => {
    const a = searchTools(index.tools, 'repository');
    const b = searchTools([...index.tools].reverse(), 'repository');
    expect(a.map((h) => h.name)).toEqual(b.map((h) => h.name));
    expect(a.map((h) => h.name)).toEqual(['github__create_issue', 'github__get_file_contents', 'github__list_issues']);
  });

  it('returns nothing for an empty or stop-word query, or no match', () => {
    expect(searchTools(index.tools, '')).toEqual([]);
    expect(searchTools(index.tools, 'the of and')).toEqual([]);
    expect(searchTools(index.tools, 'weather forecast')).toEqual([]);
  });
});
