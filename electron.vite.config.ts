import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Three builds: main (Electron entry + the plain-Node CLI, which shares the Host, + the code
// sandbox's worker), the sandboxed
// preload (must be CommonJS: Electron's sandboxed preloads cannot be ES modules) and the renderer.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      sourcemap: true,
      rollupOptions: {
        // The contract is pure (zod and its own files): a file whose exports no chunk uses is not
        // imported for its side effects — without this, importing a value through the contract's
        // index evaluated the command and event maps too.
        treeshake: { moduleSideEffects: (id: string) => (/[\\/]preload[\\/]contract[\\/]/.test(id) ? false : undefined) },
        input: {
          index: resolve(import.meta.dirname, 'main/index.ts'),
          cli: resolve(import.meta.dirname, 'main/cli/main.ts'),
          // The code sandbox's worker thread: its own entry, found beside the bundle at run time.
          'sandbox-worker': resolve(import.meta.dirname, 'main/host/code-mode/sandbox-worker.ts'),
        },
        output: {
          // The contract in two chunks: the files the Host uses at run time (enums, row shapes,
          // limits), and the command and event maps with the files only they use, loaded by what
          // checks or dispatches (main/dispatch.ts, contract checks, browser mode) — never by a
          // one-shot CLI command, which would build ~90 ms of schemas it has no use for (#32).
          // A group takes its files' imports with it: the Host's files go first (higher priority).
          codeSplitting: {
            groups: [
              { name: 'contract', priority: 2, test: /preload[\\/]contract[\\/](errors|shared|secrets|names|consent|chat-files|code|tasks|server-views|chat|client-features|app-limits)\.ts$/ },
              { name: 'contract-maps', priority: 1, test: /preload[\\/]contract[\\/]/ },
            ],
          },
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload can require only electron: bundle the contract's zod into it.
      externalizeDeps: false,
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      // The first paint loads the shell and one page; minified, that is a fraction of the unminified bundle.
      minify: true,
      // Only for `npm run coverage` (scripts/coverage.mjs), which maps Chromium's coverage back to renderer/src.
      sourcemap: process.env.HARBOR_COVERAGE_SOURCEMAPS === '1' ? 'hidden' : false,
      rollupOptions: {
        input: resolve(import.meta.dirname, 'renderer/index.html'),
        output: {
          // Every page is a lazy chunk (app/Page.tsx); the libraries they share get their own chunks, so
          // a page's chunk holds its own code and an update to it leaves React's chunk cached.
          codeSplitting: {
            groups: [
              { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
              { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            ],
          },
        },
      },
    },
  },
});
