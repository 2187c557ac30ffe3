/**
 * Keeps the design documents true to the tree they describe:
 * - docs/architecture.md names every folder under main/host/ and renderer/src/ (all depths), as a
 *   backticked path — a folder added without a line there fails here;
 * - every repository path written in backticks or linked in README.md and docs/*.md exists;
 * - every environment variable the code reads is listed in docs/contributing.md;
 * - README.md and docs/*.md point to nothing outside the repository.
 *
 * Each check is a function of a root folder, and each is also run on a small tree made here, so
 * the test proves it can fail (a check that never fires would keep stale docs green).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '../..');

/** The folders whose every subfolder docs/architecture.md must name. */
const DOCUMENTED_TREES = ['main/host', 'renderer/src'];

/** Where code that reads environment variables lives (test fixtures are servers' own knobs, not Harbor's). */
const ENV_SOURCES = ['main', 'preload', 'renderer/src', 'scripts', 'bench', 'bin', 'resources', 'test/helpers', 'test/setup', 'test/e2e', 'test/conformance'];
const CODE_FILE = /\.(?:[cm]?[jt]s|tsx)$/;
/** Root files that read the environment too: playwright.config.ts, vitest.config.ts, … */
const ROOT_CONFIG = /\.config\.[cm]?[jt]s$/;

/**
 * Variables read in code that docs/contributing.md need not list. Empty on purpose: even the
 * platform's own (PATH, HOME, …) are documented there. Add a name only with a reason.
 */
const UNDOCUMENTED_ALLOWED = new Set<string>();

// ---------------------------------------------------------------------------------------------
// The checks, each a function of a root folder

/** Subfolders of `dir` (relative to `root`, POSIX separators), at every depth. */
function foldersUnder(root: string, dir: string): string[] {
  const absolute = join(root, dir);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .flatMap((entry) => {
      const child = posix.join(dir, entry.name);
      return [child, ...foldersUnder(root, child)];
    });
}

/** Every `code span` of a markdown text. */
function codeSpans(markdown: string): string[] {
  return [...markdown.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim());
}

/** Words of the fenced blocks (diagrams, commands) that could be paths: `a/b`, cut at spaces and punctuation. */
function fencedWords(markdown: string): string[] {
  return [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].flatMap((m) =>
    m[1]!.split(/[\s(),;:'"{}<>|=[\]]+/).map((word) => word.replace(/[.…]+$/, '')),
  );
}

/** A word shaped like a relative path with at least one slash (`main/host/`, `test/unit/*.test.ts`). */
const PATH_SHAPE = /^[\w.@-]+(?:\/[\w.*@-]+)*\/?$/;
const looksLikePath = (word: string) => word.includes('/') && PATH_SHAPE.test(word);

/** Folders of the documented trees that the architecture document does not name as `path/`. */
function undocumentedFolders(root: string, architecture: string): string[] {
  const named = new Set(codeSpans(architecture).map((span) => span.replace(/\/+$/, '')));
  return DOCUMENTED_TREES.flatMap((tree) => foldersUnder(root, tree)).filter((folder) => !named.has(folder));
}

/** Patterns of the root .gitignore: paths under them are built or installed, not in the repository. */
function ignoredPrefixes(root: string): string[] {
  const file = join(root, '.gitignore');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#') && !line.includes('*'))
    .map((line) => line.replace(/^\//, '').replace(/\/?$/, '/'));
}

/** Top-level folders of the repository (the first segment a written repo path starts with). */
function topLevelFolders(root: string): Set<string> {
  return new Set(
    readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== '.git' && entry.name !== 'node_modules')
      .map((entry) => entry.name),
  );
}

/** A path as written (`main/host/`, `test/unit/*.test.ts`) exists: up to its first wildcard. */
function pathExists(root: string, written: string): boolean {
  const segments = written.replace(/\/+$/, '').split('/');
  const wildcard = segments.findIndex((segment) => segment.includes('*'));
  const fixed = wildcard === -1 ? segments : segments.slice(0, wildcard);
  return existsSync(join(root, ...fixed));
}

interface Doc {
  /** Relative to the root, POSIX separators. */
  readonly path: string;
  readonly text: string;
}

/** The text with fenced blocks and inline code blanked out: `a["b"](args)` in code is not a link. */
function withoutCode(markdown: string): string {
  return markdown.replace(/```[\s\S]*?```/g, ' ').replace(/`[^`\n]*`/g, ' ');
}

/** Markdown link targets that are not web, mail or in-page links. */
function fileLinks(markdown: string): string[] {
  return [...withoutCode(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!.replace(/#.*$/, ''))
    .filter((target) => target !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/**
 * Repository paths named in the documents that do not exist: paths in backticks or in fenced
 * blocks that start with a top-level folder (built or installed ones such as out/ are skipped),
 * and link targets, resolved from the document's own folder.
 */
function missingPaths(root: string, docs: readonly Doc[]): string[] {
  const tops = topLevelFolders(root);
  const ignored = ignoredPrefixes(root);
  const missing: string[] = [];
  for (const doc of docs) {
    for (const span of [...codeSpans(doc.text), ...fencedWords(doc.text)]) {
      if (!looksLikePath(span)) continue;
      if (!tops.has(span.split('/')[0]!)) continue;
      if (ignored.some((prefix) => `${span}/`.startsWith(prefix))) continue;
      if (!pathExists(root, span)) missing.push(`${doc.path}: \`${span}\``);
    }
    for (const target of fileLinks(doc.text)) {
      const inRepo = posix.normalize(posix.join(posix.dirname(doc.path), target));
      if (inRepo.startsWith('..')) continue; // reported by linksOutside
      if (!pathExists(root, inRepo)) missing.push(`${doc.path}: link (${target})`);
    }
  }
  return missing;
}

/** Links and backticked paths that point outside the repository (`../…`, absolute files, file: URLs). */
function linksOutside(docs: readonly Doc[]): string[] {
  const outside: string[] = [];
  for (const doc of docs) {
    for (const target of [...markdownTargets(doc.text)]) {
      const inRepo = posix.normalize(posix.join(posix.dirname(doc.path), target));
      if (/^file:/i.test(target) || target.startsWith('/') || inRepo.startsWith('..')) outside.push(`${doc.path}: link (${target})`);
    }
    for (const span of codeSpans(doc.text)) {
      if (/^\.\.[\\/]/.test(span)) outside.push(`${doc.path}: \`${span}\``);
    }
  }
  return outside;
}

/** Every markdown link target, web links included (file: URLs are outside by definition). */
function markdownTargets(markdown: string): string[] {
  return [...withoutCode(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!.replace(/#.*$/, ''))
    .filter((target) => target !== '' && (/^file:/i.test(target) || !/^[a-z][a-z0-9+.-]*:/i.test(target)));
}

/**
 * The environment variables a source text reads: `process.env.X`, `process.env['X']`, `env.X` /
 * `env['X']` on an environment passed in (not Vite's `import.meta.env`), and Harbor's own names
 * held in constants (`'HARBOR_…'`). Comment lines are skipped: a doc comment quoting `env.X` of a
 * server's config reads nothing.
 */
function envReads(source: string): Set<string> {
  const code = source
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n');
  const names = new Set<string>();
  const patterns = [
    /process\.env(?:\?\.|\.)([A-Z][A-Z0-9_]*)\b/g,
    /(?<!meta\.)\benv\??\.([A-Z][A-Z0-9_]*)\b/g,
    /\benv\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\]/g,
    /['"](HARBOR_[A-Z0-9_]+)['"]/g,
  ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) names.add(m[1]!);
  return names;
}

/** Code files under `dir` (relative to `root`), at every depth. */
function codeFilesUnder(root: string, dir: string): string[] {
  const absolute = join(root, dir);
  if (!existsSync(absolute)) return [];
  if (statSync(absolute).isFile()) return CODE_FILE.test(dir) ? [dir] : [];
  return readdirSync(absolute, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.') && entry.name !== 'node_modules')
    .flatMap((entry) => codeFilesUnder(root, posix.join(dir, entry.name)));
}

/** Variables read in code (ENV_SOURCES and the root config files) that contributing.md does not list, with where. */
function undocumentedEnvVars(root: string, contributing: string): string[] {
  const listed = new Set(codeSpans(contributing));
  const rootConfigs = readdirSync(root).filter((name) => ROOT_CONFIG.test(name));
  const readers = new Map<string, string>();
  for (const file of [...ENV_SOURCES.flatMap((dir) => codeFilesUnder(root, dir)), ...rootConfigs]) {
    for (const name of envReads(readFileSync(join(root, file), 'utf8'))) {
      if (!readers.has(name)) readers.set(name, file);
    }
  }
  return [...readers]
    .filter(([name]) => !listed.has(name) && !UNDOCUMENTED_ALLOWED.has(name))
    .map(([name, file]) => `${name} (read in ${file})`)
    .sort();
}

function readDocs(root: string): Doc[] {
  const docsDir = join(root, 'docs');
  const docs = existsSync(docsDir) ? readdirSync(docsDir).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`) : [];
  return ['README.md', ...docs].map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
}

// ---------------------------------------------------------------------------------------------
// The repository

describe('the docs describe the tree as it is', () => {
  const architecture = readFileSync(join(REPO, 'docs/architecture.md'), 'utf8');
  const contributing = readFileSync(join(REPO, 'docs/contributing.md'), 'utf8');

  it('docs/architecture.md names every folder of main/host/ and renderer/src/', () => {
    expect(undocumentedFolders(REPO, architecture), 'add a line for each of these folders to docs/architecture.md §2 (as `path/`)').toEqual([]);
  });

  it('every repository path the docs and README name exists', () => {
    expect(missingPaths(REPO, readDocs(REPO)), 'these paths were moved or removed: update the docs').toEqual([]);
  });

  it('docs/contributing.md lists every environment variable the code reads', () => {
    expect(undocumentedEnvVars(REPO, contributing), 'add each to the tables in docs/contributing.md "Environment variables"').toEqual([]);
  });

  it('README.md and docs/ point to nothing outside the repository', () => {
    expect(linksOutside(readDocs(REPO))).toEqual([]);
  });

  it('README.md links to the architecture and contributing docs', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    expect(fileLinks(readme)).toEqual(expect.arrayContaining(['docs/architecture.md', 'docs/contributing.md']));
  });
});

// ---------------------------------------------------------------------------------------------
// The checks can fail

describe('the checks fire on a tree that breaks them', () => {
  let root: string;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  function write(path: string, text = ''): void {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }

  it('a folder added to the tree without a line in the real architecture.md is reported', () => {
    root = mkdtempSync(join(tmpdir(), 'harbor-docs-'));
    for (const folder of DOCUMENTED_TREES.flatMap((tree) => foldersUnder(REPO, tree))) mkdirSync(join(root, folder), { recursive: true });
    const added = ['main/host/not-yet-documented', 'renderer/src/features/servers/not-yet-documented'];
    for (const folder of added) mkdirSync(join(root, folder));
    const architecture = readFileSync(join(REPO, 'docs/architecture.md'), 'utf8');
    // Beside whatever the real tree already lacks (the first test reports that).
    const before = undocumentedFolders(REPO, architecture);
    expect(undocumentedFolders(root, architecture).filter((folder) => !before.includes(folder))).toEqual(added);
    expect(undocumentedFolders(root, `${architecture}\n\`${added[0]}/\` and \`${added[1]}\``)).toEqual(before);
  });

  it('a named path that does not exist is reported; built output and package names are not paths of the repo', () => {
    root = mkdtempSync(join(tmpdir(), 'harbor-docs-'));
    write('.gitignore', 'out/\ntest/output/\n');
    write('main/host/host.ts');
    write('test/unit/a.test.ts');
    write('docs/architecture.md');
    const docs: Doc[] = [
      {
        path: 'docs/contributing.md',
        text: [
          '`main/host/host.ts` `main/host/gone.ts` `test/unit/*.test.ts` `tests/unit/` `out/main/cli.js`',
          '`test/output/vitest.json` `@modelcontextprotocol/client` `harbor/host-layering` `~/.config/Harbor`',
          '[here](architecture.md) [there](missing.md#part) [web](https://example.com/x.md)',
          '```',
          'main/host/host.ts → main/host/renamed.ts (a diagram); out/renderer/; notifications/tools/list_changed',
          '```',
        ].join('\n'),
      },
    ];
    expect(missingPaths(root, docs)).toEqual([
      'docs/contributing.md: `main/host/gone.ts`',
      'docs/contributing.md: `main/host/renamed.ts`',
      'docs/contributing.md: link (missing.md)',
    ]);
  });

  it('a variable read in code and not listed is reported; comments and import.meta.env are not reads', () => {
    root = mkdtempSync(join(tmpdir(), 'harbor-docs-'));
    write(
      'main/host/a.ts',
      [
        "const a = process.env.HARBOR_ONE ?? process.env['HARBOR_TWO'];",
        '/** e.g. `env.GITHUB_TOKEN` of a server */',
        '// process.env.NOT_READ',
        'const dev = import.meta.env.DEV;',
        "export const FLAG = 'HARBOR_THREE';",
        'export function f(env = process.env) { return env.OLLAMA_HOST ?? env?.SHELL; }',
      ].join('\n'),
    );
    write('scripts/b.mjs', 'const c = process.env.CI;');
    write('playwright.config.ts', 'const p = process.env.CHROMIUM_PATH;');
    write('test/fixtures/server.mjs', 'const x = process.env.FIXTURE_ONLY;');
    expect(undocumentedEnvVars(root, '`HARBOR_ONE` `OLLAMA_HOST`')).toEqual([
      'CHROMIUM_PATH (read in playwright.config.ts)',
      'CI (read in scripts/b.mjs)',
      'HARBOR_THREE (read in main/host/a.ts)',
      'HARBOR_TWO (read in main/host/a.ts)',
      'SHELL (read in main/host/a.ts)',
    ]);
  });

  it('a link or path outside the repository is reported; web links and system paths are not', () => {
    const docs: Doc[] = [
      {
        path: 'README.md',
        text: 'See `../shared/DESIGN.md` and [design](../shared/DESIGN.md), [abs](/etc/x.md), [f](file:///tmp/x.md).\n[ok](docs/architecture.md) [web](https://modelcontextprotocol.io) `/usr/bin/chromium`',
      },
      { path: 'docs/contributing.md', text: '[up](../README.md) [out](../../elsewhere.md)' },
    ];
    expect(linksOutside(docs)).toEqual([
      'README.md: link (../shared/DESIGN.md)',
      'README.md: link (/etc/x.md)',
      'README.md: link (file:///tmp/x.md)',
      'README.md: `../shared/DESIGN.md`',
      'docs/contributing.md: link (../../elsewhere.md)',
    ]);
  });
});
