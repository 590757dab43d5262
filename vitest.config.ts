import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests that disturb what every other test shares (restarting PostgreSQL) run alone: vitest.serial.config.ts.
    exclude: [...configDefaults.exclude, 'test/serial/**'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: run two files at a time; each file starts its own servers on its own SQLite files.
    maxWorkers: 2,
  },
});
