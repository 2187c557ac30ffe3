/** The bundle zip reader: every refusal before anything is written, and an unpack that is owner-only and checked. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractArchive, listArchive, readArchiveFile } from '../../main/host/bundles/archive';
import { HarborError } from '../../main/host/errors';
import { makeZip } from '../helpers/zip';

const root = mkdtempSync(join(tmpdir(), 'harbor-archive-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function refusal(zip: Buffer): Promise<string> {
  const error = await listArchive(zip).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HarborError);
  expect((error as HarborError).code).toBe('BAD_REQUEST');
  return (error as HarborError).message;
}

describe('reading a bundle zip', () => {
  it('lists entries with their sizes and modes', async () => {
    const zip = makeZip([{ name: 'manifest.json', data: '{}' }, { name: 'server/run', data: '#!/bin/sh', mode: 0o100755 }]);
    const entries = await listArchive(zip);
    expect(entries).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'manifest.json', size: 2, directory: false }), expect.objectContaining({ name: 'server/run', mode: 0o755 })]),
    );
    expect((await readArchiveFile(zip, 'manifest.json', 100))?.toString()).toBe('{}');
    expect(await readArchiveFile(zip, 'missing.json', 100)).toBeUndefined();
  });

  it('refuses entries that would escape the folder, links, special files and duplicates', async () => {
    expect(await refusal(makeZip([{ name: '../evil', data: 'x' }]))).toMatch(/not a usable bundle/);
    expect(await refusal(makeZip([{ name: 'a/../../evil', data: 'x' }]))).toMatch(/not a usable bundle/);
    expect(await refusal(makeZip([{ name: '/etc/evil', data: 'x' }]))).toMatch(/not a usable bundle/);
    expect(await refusal(makeZip([{ name: 'a\\b', data: 'x' }]))).toMatch(/not a usable bundle/);
    expect(await refusal(makeZip([{ name: 'link', data: '/etc/passwd', mode: 0o120777 }]))).toMatch(/"link" is a symbolic link/);
    expect(await refusal(makeZip([{ name: 'fifo', data: '', mode: 0o010644 }]))).toMatch(/"fifo" is a special file/);
    expect(await refusal(Buffer.from('not a zip at all'))).toMatch(/not a valid zip file/);
  });

  it('refuses a manifest larger than allowed', async () => {
    const zip = makeZip([{ name: 'manifest.json', data: 'x'.repeat(2048) }]);
    await expect(readArchiveFile(zip, 'manifest.json', 1024)).rejects.toThrow(/manifest.json is larger than/);
  });

  it('unpacks owner-only, keeping the executable bit, and refuses a damaged file', async () => {
    const dir = join(root, 'ok');
    await extractArchive(makeZip([{ name: 'manifest.json', data: '{}' }, { name: 'server/run', data: '#!/bin/sh', mode: 0o100755 }]), dir);
    expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).toBe('{}');
    expect(statSync(join(dir, 'manifest.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'server', 'run')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'server')).mode & 0o777).toBe(0o700);

    // A stored (uncompressed) entry with one byte changed after the zip was made: its CRC-32 no longer matches.
    const zip = makeZip([{ name: 'data.txt', data: 'hello world, this is the content' }], { store: true });
    const at = zip.indexOf('hello world');
    expect(at).toBeGreaterThan(0);
    zip[at] = 'j'.charCodeAt(0);
    await expect(extractArchive(zip, join(root, 'damaged'))).rejects.toThrow(/"data.txt" is damaged/);
    expect(readdirSync(root)).toContain('ok');
  });
});
