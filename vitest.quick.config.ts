import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:quick` and `npm run test:watch`: the tests that answer in about a minute — unit
 * tests, the store contract, and the suites that drive the server in-process (no socket, no child
 * process; src/transport/test-support/in-process.ts). The CLI, stdio, docs, browser, scale and
 * package suites run in `npm test`.
 */
export const QUICK = [
  'src/**/*.test.ts',
  'test/architecture.test.ts',
  'test/architecture/*.test.ts',
  'test/contract/*.test.ts',
  'test/support/in-process-server.test.ts',
  'test/e2e/server.test.ts',
  'test/e2e/budgets.test.ts',
  'test/e2e/continue-url.test.ts',
  'test/e2e/localization.test.ts',
  'test/tenants/tenants.test.ts',
];

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: QUICK,
    // One module cache per worker instead of one per file: loading the modules again for each of
    // the ~110 files was half of the CPU time. These files leave no global state behind (each
    // cleans up its servers, stores and timers), which `npm test` (isolated) keeps checking.
    isolate: false,
    // Vitest's default is one worker fewer than the cores, so a single worker on a 2-core machine;
    // these files wait on SQLite, PostgreSQL and worker threads as much as they compute.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
