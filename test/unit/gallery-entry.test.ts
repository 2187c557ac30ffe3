/** server.json documents (test/fixtures/registry) turned into what the gallery shows and what an install writes. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { choiceAt, galleryEntry } from '../../main/host/gallery/entry';
import { ServerResponse } from '../../main/host/gallery/server-json';
import { galleryServerView } from '../../main/host/gallery/view';

const DIR = resolve(import.meta.dirname, '../fixtures/registry/servers');
const doc = (file: string) => ServerResponse.parse(JSON.parse(readFileSync(join(DIR, `${file}.json`), 'utf8')));
const secret = (key: string) => `s-${key.toLowerCase()}`;

describe('server.json as the gallery shows it', () => {
  it('reads every fixture document, with each way of running and its inputs', () => {
    for (const file of readdirSync(DIR)) expect(() => ServerResponse.parse(JSON.parse(readFileSync(join(DIR, file), 'utf8'))), file).not.toThrow();
    const view = galleryServerView(doc('filesystem-1.0.2'));
    expect(view).toMatchObject({ name: 'io.github.modelcontextprotocol/filesystem', title: 'Filesystem', version: '1.0.2', status: 'active', repository: { url: 'https://github.com/modelcontextprotocol/servers', subfolder: 'src/filesystem' } });
    expect(view.options.map((o) => [o.kind, o.type, o.supported])).toEqual([
      ['package', 'npm', true],
      ['package', 'oci', true],
    ]);
    expect(view.options[0]!.inputs).toEqual([
      { key: 'target_dir', kind: 'argument', description: 'Path to access', required: true, secret: false, default: '/Users/username/Desktop', repeated: true },
      { key: 'LOG_LEVEL', kind: 'env', description: 'Logging level (debug, info, warn, error)', required: false, secret: false, default: 'info' },
    ]);
    const github = galleryServerView(doc('github'));
    expect(github.options[1]).toMatchObject({ kind: 'remote', type: 'streamable-http', identifier: 'https://api.githubcopilot.com/mcp/', inputs: [{ key: 'token', secret: true }] });
  });

  it('marks what Harbor cannot run, saying why', () => {
    const view = galleryServerView(
      ServerResponse.parse({ server: { name: 'a/b', description: 'x', version: '1', packages: [{ registryType: 'cargo', identifier: 'x', transport: { type: 'stdio' } }, { registryType: 'npm', identifier: 'y', version: '1', transport: { type: 'streamable-http', url: 'http://localhost:{port}/mcp' } }] } }),
    );
    expect(view.options.map((o) => o.supported)).toEqual([false, false]);
    expect(view.options[0]!.note).toMatch(/a cargo package, which Harbor cannot run/);
    expect(view.options[1]!.note).toMatch(/start it yourself and add its URL/);
  });
});

describe('the registry entry an install writes', () => {
  it('npm, PyPI, OCI and NuGet packages as their runners start them', () => {
    const fs = doc('filesystem-1.0.2').server;
    expect(galleryEntry(fs, choiceAt(fs, 0), { target_dir: ['/a', '/b'] }, secret).launch).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem@1.0.2', '/a', '/b'], env: { LOG_LEVEL: 'info' } });
    expect(galleryEntry(fs, choiceAt(fs, 1), { source_path: '/src' }, secret).launch).toEqual({
      command: 'docker',
      args: ['run', '-i', '--rm', '--mount', 'type=bind,src=/src,dst=/project', '-e', 'LOG_LEVEL', 'docker.io/mcp/filesystem:1.0.2', '/project'],
      env: { LOG_LEVEL: 'info' },
    });
    const time = doc('time').server;
    expect(galleryEntry(time, choiceAt(time, 0), {}, secret).launch).toEqual({ command: 'uvx', args: ['mcp-server-time==0.6.2'] });
    const nuget = doc('knapcode').server;
    expect(galleryEntry(nuget, choiceAt(nuget, 0), { WEATHER_CHOICES: 'sun' }, secret).launch).toEqual({ command: 'dnx', args: ['Knapcode.SampleMcpServer@0.5.0', '--yes', '--', 'mcp', 'start'], env: { WEATHER_CHOICES: 'sun' } });
  });

  it('secrets become keychain references in env and headers; the values come back to be stored', () => {
    const github = doc('github').server;
    const oci = galleryEntry(github, choiceAt(github, 0), { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_1' }, secret);
    expect(oci.launch.env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: '${secret:s-github_personal_access_token}' });
    expect(oci.secrets).toEqual([{ key: 'GITHUB_PERSONAL_ACCESS_TOKEN', name: 's-github_personal_access_token', value: 'ghp_1' }]);
    const remote = galleryEntry(github, choiceAt(github, 1), { token: 'ghp_2' }, secret);
    expect(remote).toMatchObject({ kind: 'remote', launch: { url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer ${secret:s-token}' } } });
  });

  it('refuses a secret on the command line or in a URL, a missing input, and an MCPB package', () => {
    const detail = ServerResponse.parse({
      server: {
        name: 'a/b',
        description: 'x',
        version: '1',
        packages: [{ registryType: 'npm', identifier: 'p', version: '1', transport: { type: 'stdio' }, packageArguments: [{ type: 'named', name: '--token', isSecret: true, isRequired: true }] }],
        remotes: [{ type: 'sse', url: 'https://x.example/{key}/sse', variables: { key: { isSecret: true, isRequired: true } } }],
      },
    }).server;
    expect(() => galleryEntry(detail, choiceAt(detail, 0), { token: 't' }, secret)).toThrow(/takes a secret on its command line/);
    expect(() => galleryEntry(detail, choiceAt(detail, 1), { key: 'k' }, secret)).toThrow(/needs a secret in its URL/);
    expect(() => galleryEntry(detail, choiceAt(detail, 0), {}, secret)).toThrow(/needs "token"/);
    const hello = doc('hello-bundle').server;
    expect(() => galleryEntry(hello, choiceAt(hello, 0), {}, secret)).toThrow(/installs as a bundle/);
    expect(() => choiceAt(hello, 5)).toThrow(/no way to run numbered 5/);
  });
});
