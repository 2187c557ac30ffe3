#!/usr/bin/env node
// The `harbor` command: a thin launcher for the built CLI (npm run build writes out/main/cli.js).
// It checks the Node version first and imports nothing but Node's oldest modules until then: the
// CLI needs node:sqlite (and DatabaseSync#isOpen), which an older Node cannot even load, so an old
// Node gets one line naming both versions instead of a module-not-found crash.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const needed = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(pkg.engines.node);
if (!needed) throw new Error(`package.json engines.node must read ">=X.Y.Z" (found "${pkg.engines.node}")`);
const [found, atLeast] = [process.versions.node.split('.').map(Number), needed.slice(1).map(Number)];
const firstDifference = found.findIndex((part, i) => part !== atLeast[i]);
if (firstDifference !== -1 && found[firstDifference] < atLeast[firstDifference]) {
  const want = atLeast.join('.');
  process.stderr.write(
    `harbor: needs Node.js ${want} or later, but this is Node.js ${process.versions.node}. ` +
      `Install Node.js ${want} or later, or run "npx harbor" inside the Harbor folder (it uses the Node the project pins in node_modules).\n`,
  );
  process.exit(2);
}

const built = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(built)) {
  process.stderr.write('harbor: the CLI is not built yet. Run "npm run build" in the Harbor folder first.\n');
  process.exit(2);
}
// Node's compile cache (in the OS temp folder): later starts skip compiling the CLI's code and its
// packages again, about 0.1 s of CPU of every command (measured with harbor tools, server-memory).
process.getBuiltinModule('node:module').enableCompileCache?.();
const { main } = await import(pathToFileURL(built).href);
process.exitCode = await main(process.argv.slice(2));
