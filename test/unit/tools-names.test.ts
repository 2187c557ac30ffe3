import { describe, expect, it } from 'vitest';
import { assignExposedNames, MAX_TOOL_NAME, sanitizeNamePart } from '../../main/host/tools/names';
import { ToolIndex, exposedDescription } from '../../main/host/tools/tool-index';
import { providerInputSchema } from '../../main/host/tools/schema';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

describe('exposed tool names', () => {
  it('are server__tool, sanitized to [a-zA-Z0-9_-]', () => {
    expect(assignExposedNames([{ server: 'github', tool: 'create_issue' }])).toEqual(['github__create_issue']);
    expect(sanitizeNamePart('my server.v2/ünï 🙂')).toBe('my_server_v2__n___');
    const [name] = assignExposedNames([{ server: 'Files (local)', tool: 'read.file' }]);
    expect(name).toBe('Files__local___read_file');
    expect(name).toMatch(VALID);
  });

  it('are cut to 64 characters', () => {
    const [name] = assignExposedNames([{ server: 's'.repeat(40), tool: 't'.repeat(40) }]);
    expect(name).toHaveLength(MAX_TOOL_NAME);
    expect(name).toMatch(VALID);
  });

  it('get a deterministic suffix on collision — never a silent overwrite', () => {
    const requests = [
      { server: 'a.b', tool: 'x' },
      { server: 'a_b', tool: 'x' },
      { server: 'a b', tool: 'x' },
    ];
    const names = assignExposedNames(requests);
    expect(new Set(names).size).toBe(3);
    for (const n of names) expect(n).toMatch(VALID);
    // The first in (server, tool) order keeps the plain name: "a b" < "a.b" < "a_b".
    expect(names[2]).toBe('a_b__x');
    expect(names[0]).toMatch(/^a_b__x_[0-9a-f]{6}$/);
    // Same input, any order, any run: the same names.
    const reversed = assignExposedNames([...requests].reverse());
    expect(reversed.reverse()).toEqual(names);
    expect(assignExposedNames(requests)).toEqual(names);
  });

  it('stay unique and valid when long names collide after cutting', () => {
    const long = 'x'.repeat(80);
    const names = assignExposedNames([
      { server: 'srv', tool: `${long}1` },
      { server: 'srv', tool: `${long}2` },
    ]);
    expect(names[0]).not.toBe(names[1]);
    for (const n of names) expect(n).toMatch(VALID);
  });
});

describe('ToolIndex', () => {
  const tools = (names: string[]) => names.map((name) => ({ name, description: `does ${name}`, inputSchema: { type: 'object' as const } }));

  it('routes exposed names back to server and tool, skipping disabled tools', () => {
    const index = ToolIndex.build([
      { server: 'one', tools: tools(['echo', 'fail']), disabled: new Set(['fail']) },
      { server: 'two', tools: tools(['echo']) },
    ]);
    expect(index.tools.map((t) => t.exposedName)).toEqual(['one__echo', 'two__echo']);
    expect(index.resolve('two__echo')).toMatchObject({ server: 'two', tool: { name: 'echo' } });
    expect(index.resolve('one__fail')).toBeUndefined();
    expect(index.resolve('one__echo')!.description).toBe('[one] does echo');
  });

  it('prefixes descriptions with the configured server name, not what the server calls itself', () => {
    expect(exposedDescription('my-files', { name: 'read', description: '  Reads a file. ', inputSchema: { type: 'object' } })).toBe('[my-files] Reads a file.');
    expect(exposedDescription('x', { name: 'read', inputSchema: { type: 'object' } })).toBe('[x] read');
  });

  it('gives providers an object schema with properties and no $schema', () => {
    expect(providerInputSchema({ type: 'object' })).toEqual({ type: 'object', properties: {} });
    expect(providerInputSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { a: { type: 'string' } }, required: ['a'] })).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
    expect(providerInputSchema(undefined)).toEqual({ type: 'object', properties: {} });
  });
});
