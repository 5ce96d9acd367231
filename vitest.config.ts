import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      // The server: its units and the end-to-end suites against real servers and databases.
      { extends: true, test: { name: 'server', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] } },
      // The web UI's components and pure logic, in a simulated browser.
      { extends: true, test: { name: 'ui', include: ['ui/src/**/*.test.{ts,tsx}'], environment: 'happy-dom', globalSetup: [] } },
    ],
  },
});
