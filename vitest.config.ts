import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['test/unit/**/*.test.{ts,tsx}', 'test/integration/**/*.test.ts'],
    // Every test must dispose what it creates (test/setup/leak-check.ts says when and how).
    setupFiles: ['test/setup/leak-check.ts'],
    // Real processes and sockets: forks isolate them, and a test that leaks a child is visible.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: integration tests spawn servers; too many files at once only adds noise.
    maxWorkers: 2,
    // Responses and events are checked against the contract in tests (main/host/contract-checks.ts):
    // the built CLI that integration tests run inherits this from the workers.
    env: { HARBOR_CONTRACT_CHECKS: '1' },
  },
});
