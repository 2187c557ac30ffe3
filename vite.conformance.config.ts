import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// Builds the conformance-suite client adapter (test/conformance/client.ts) into one Node ES module
// under test/output/conformance/ (gitignored). Kept apart from electron.vite.config.ts so the
// adapter never lands in out/main and never ships in the app. Dependencies stay external and
// resolve from node_modules at run time. Used by scripts/conformance.mjs.
export default defineConfig({
  logLevel: 'warn',
  build: {
    ssr: resolve(import.meta.dirname, 'test/conformance/client.ts'),
    outDir: resolve(import.meta.dirname, 'test/output/conformance'),
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    minify: false,
    rolldownOptions: {
      output: { format: 'es', entryFileNames: 'client.mjs' },
    },
  },
});
