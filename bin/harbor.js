#!/usr/bin/env node
// The `harbor` command: a thin launcher for the built CLI (npm run build writes out/main/cli.js).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const built = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(built)) {
  process.stderr.write('harbor: the CLI is not built yet. Run "npm run build" in the Harbor folder first.\n');
  process.exit(2);
}
const { main } = await import(pathToFileURL(built).href);
process.exitCode = await main(process.argv.slice(2));
