// Tests that must run alone, one file at a time, after the main suite: they disturb what the other tests share
// (test/serial/postgres-restart.test.ts stops and starts PostgreSQL).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/serial/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
  },
});
