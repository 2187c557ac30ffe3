/** Opening .mcpb files with the desktop app: the file type registered, and files found in argv or open-file. */
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BundleFileInbox, bundleFilesIn } from '../../main/shell/bundle-files';

const dir = mkdtempSync(join(tmpdir(), 'harbor-bundle-files-'));
const bundle = join(dir, 'hello.mcpb');
writeFileSync(bundle, 'zip');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bundle files for the desktop app', () => {
  it('the installers register .mcpb for Harbor', () => {
    const config = parse(readFileSync(resolve(import.meta.dirname, '../../electron-builder.yml'), 'utf8')) as { fileAssociations?: Array<{ ext: string; name: string }> };
    expect(config.fileAssociations).toContainEqual(expect.objectContaining({ ext: 'mcpb', name: 'MCP Bundle' }));
  });

  it('finds existing .mcpb files in a command line, relative ones against its folder, and nothing else', () => {
    expect(bundleFilesIn(['/opt/Harbor/harbor', '--flag.mcpb', bundle, 'missing.mcpb', join(dir, 'other.txt')])).toEqual([bundle]);
    expect(bundleFilesIn(['hello.mcpb'], dir)).toEqual([bundle]);
  });

  it('holds files until the window can show them, then hands each over; macOS open-file is taken only for bundles', () => {
    const inbox = new BundleFileInbox();
    const app = new EventEmitter();
    inbox.bindOpenFile(app as never);
    inbox.fromArgv([bundle]);
    let prevented = 0;
    app.emit('open-file', { preventDefault: () => prevented++ }, '/Users/me/a.mcpb');
    app.emit('open-file', { preventDefault: () => prevented++ }, '/Users/me/notes.txt');
    const seen: string[] = [];
    inbox.setHandler((path) => seen.push(path));
    expect(seen).toEqual([bundle, '/Users/me/a.mcpb']);
    expect(prevented).toBe(1);
    inbox.push('/later.mcpb');
    expect(seen.at(-1)).toBe('/later.mcpb');
  });
});
