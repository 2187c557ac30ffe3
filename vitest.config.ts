import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['test/unit/**/*.test.{ts,tsx}', 'test/integration/**/*.test.ts', 'test/security/**/*.test.ts', 'test/faults/**/*.test.ts'],
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
    env: { HARBOR_CONTRACT_CHECKS: '1' },
  },
});
