import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['test/unit/**/*.test.{ts,tsx}', 'test/integration/**/*.test.ts', 'test/security/**/*.test.{ts,tsx}', 'test/faults/**/*.test.ts'],
    // Every test must dispose what it creates (test/setup/leak-check.ts says when and how).
    setupFiles: ['test/setup/leak-check.ts'],
    // Real processes and sockets: forks isolate them, and a test that leaks a child is visible.
    pool: 'forks',
    // Integration tests start real servers, often through the built CLI several times in a row: the
    // slowest take 10–20 s on two idle cores, so 30 s left too little room when the machine is busy.
    // A test that hangs still fails, just later.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: integration tests spawn servers; too many files at once only adds noise.
    maxWorkers: 2,
    // Responses and events are checked against the contract in tests (main/host/contract-checks.ts):
    // the built CLI that integration tests run inherits this from the workers.
    // `npm run coverage` (scripts/coverage.mjs) sets HARBOR_COVERAGE_NODE_DIR: the CLI processes the tests
    // start then write their V8 coverage there (NODE_V8_COVERAGE), merged with this run's own.
    env: { HARBOR_CONTRACT_CHECKS: '1', ...(process.env.HARBOR_COVERAGE_NODE_DIR ? { NODE_V8_COVERAGE: process.env.HARBOR_COVERAGE_NODE_DIR } : {}) },
    // Only with --coverage.enabled (npm run coverage); npm test measures nothing.
    coverage: { provider: 'v8', include: ['main/**/*.ts', 'preload/**/*.ts', 'renderer/src/**/*.{ts,tsx}'], reporter: ['json'], reportOnFailure: true },
  },
});
