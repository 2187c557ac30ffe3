import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Entry, ZipFile } from 'yauzl';
import { HarborError } from '../errors';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../private-files';
import { BUNDLE_LIMITS, MIB } from './limits';

/**
 * A bundle's zip, read safely: every entry is checked before anything is written — no absolute
 * paths, no `..`, no backslashes (yauzl refuses those), no symbolic links or device files, no
 * encryption, sizes within BUNDLE_LIMITS — and while it unpacks, each file's real size and
 * CRC-32 must match what the zip declares (a lying header cannot grow a file past its limit).
 */

const FILE_TYPE_MASK = 0o170000;
const REGULAR_FILE = 0o100000;
const DIRECTORY = 0o040000;
const SYMLINK = 0o120000;

export interface ArchiveEntry {
  readonly name: string;
  readonly directory: boolean;
  readonly size: number;
  /** Unix permission bits from the zip (0 when it recorded none). */
  readonly mode: number;
}

const corrupt = (why: string) => new HarborError('BAD_REQUEST', `This is not a usable bundle: ${why}. Nothing was installed.`);

/** The zip reader loads with the first bundle read: a CLI command that reads none never loads it. */
async function open(zip: Buffer): Promise<ZipFile> {
  const { default: yauzl } = await import('yauzl');
  return new Promise((done, fail) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true, decodeStrings: true }, (error, file) => {
      if (error) fail(corrupt(`it is not a valid zip file (${error.message})`));
      else done(file);
    });
  });
}

function describe(entry: Entry): ArchiveEntry {
  const attributes = entry.externalFileAttributes >>> 16;
  const type = attributes & FILE_TYPE_MASK;
  const directory = entry.fileName.endsWith('/') || type === DIRECTORY;
  if (type === SYMLINK) throw corrupt(`"${entry.fileName}" is a symbolic link, which a bundle may not contain`);
  if (type !== 0 && type !== REGULAR_FILE && type !== DIRECTORY) throw corrupt(`"${entry.fileName}" is a special file, which a bundle may not contain`);
  if (entry.isEncrypted()) throw corrupt(`"${entry.fileName}" is encrypted`);
  if (!entry.canDecodeFileData()) throw corrupt(`"${entry.fileName}" uses a compression Harbor cannot read`);
  if (/[\0]/.test(entry.fileName) || entry.fileName.split('/').some((part) => part === '.' || part === '..')) throw corrupt(`"${entry.fileName}" is not a safe file name`);
  return { name: entry.fileName.replace(/\/$/, ''), directory, size: directory ? 0 : entry.uncompressedSize, mode: attributes & 0o777 };
}

/** Walks every entry (checked) in order; `onEntry` may read the entry's data from the open zip. */
async function walk(zip: Buffer, onEntry: (file: ZipFile, entry: Entry, described: ArchiveEntry) => Promise<void>): Promise<ArchiveEntry[]> {
  const file = await open(zip);
  const seen = new Set<string>();
  const entries: ArchiveEntry[] = [];
  let total = 0;
  try {
    await new Promise<void>((done, fail) => {
      file.on('error', (error: Error) => fail(error instanceof HarborError ? error : corrupt(error.message)));
      file.on('end', () => done());
      file.on('entry', (entry: Entry) => {
        void (async () => {
          const described = describe(entry);
          if (described.name === '' && described.directory) return;
          if (seen.has(described.name)) throw corrupt(`"${described.name}" appears twice`);
          seen.add(described.name);
          if (seen.size > BUNDLE_LIMITS.entries) throw corrupt(`it has more than ${BUNDLE_LIMITS.entries} files`);
          total += described.size;
          if (total > BUNDLE_LIMITS.unpackedBytes) throw corrupt(`it unpacks to more than ${BUNDLE_LIMITS.unpackedBytes / MIB} MiB`);
          entries.push(described);
          await onEntry(file, entry, described);
        })().then(
          () => file.readEntry(),
          (error: unknown) => fail(error instanceof HarborError ? error : corrupt((error as Error).message)),
        );
      });
      file.readEntry();
    });
  } finally {
    file.close();
  }
  return entries;
}

function readStream(file: ZipFile, entry: Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((done, fail) => file.openReadStream(entry, (error, stream) => (error ? fail(corrupt(error.message)) : done(stream))));
}

/** Counts the bytes and the CRC-32 of what passes, and stops a file that grows past its declared size. */
function checker(entry: Entry): Transform & { check(): void } {
  // node:zlib when a bundle is read, not at every start of every command (#32).
  const { crc32 } = process.getBuiltinModule('node:zlib');
  let size = 0;
  let crc = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > entry.uncompressedSize) return callback(corrupt(`"${entry.fileName}" is larger than the zip says`));
      crc = crc32(chunk, crc);
      callback(null, chunk);
    },
  });
  return Object.assign(transform, {
    check() {
      if (size !== entry.uncompressedSize || crc !== entry.crc32 >>> 0) throw corrupt(`"${entry.fileName}" is damaged (its size or checksum does not match)`);
    },
  });
}

/** The zip's entries, every one checked; nothing is written. */
export function listArchive(zip: Buffer): Promise<ArchiveEntry[]> {
  return walk(zip, async () => undefined);
}

/** One file of the zip (manifest.json), at most `maxBytes`; undefined when the zip has no such file. */
export async function readArchiveFile(zip: Buffer, name: string, maxBytes: number): Promise<Buffer | undefined> {
  let found: Buffer | undefined;
  await walk(zip, async (file, entry, described) => {
    if (described.directory || described.name !== name) return;
    if (entry.uncompressedSize > maxBytes) throw corrupt(`${name} is larger than ${maxBytes / MIB} MiB`);
    const chunks: Buffer[] = [];
    const check = checker(entry);
    await pipeline(await readStream(file, entry), check, async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) chunks.push(chunk);
    });
    check.check();
    found = Buffer.concat(chunks);
  });
  return found;
}

/**
 * Unpacks the zip into `dir` (which must be empty or missing), owner-only: folders 0700, files
 * 0600, or 0700 when the zip marks them executable (a binary server).
 */
export async function extractArchive(zip: Buffer, dir: string): Promise<void> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  await walk(zip, async (file, entry, described) => {
    const target = resolve(root, described.name);
    if (!target.startsWith(root + sep)) throw corrupt(`"${described.name}" would land outside the bundle's folder`);
    if (described.directory) {
      await mkdir(target, { recursive: true, mode: PRIVATE_FOLDER_MODE });
      return;
    }
    await mkdir(dirname(target), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const check = checker(entry);
    const mode = described.mode & 0o111 ? PRIVATE_FOLDER_MODE : PRIVATE_FILE_MODE;
    await pipeline(await readStream(file, entry), check, createWriteStream(target, { flags: 'wx', mode }));
    check.check();
  });
}
