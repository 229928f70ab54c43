/**
 * The MCP / REST end-to-end suite (test/e2e/server.test.ts, every binding) on the PostgreSQL
 * store: same test bodies, the server started with `db: postgres://…` instead of an SQLite file.
 */
import { describe, it } from 'vitest';
import { useE2eStore } from '../e2e/support/store.js';
import { missingService } from '../support/services.js';

const missing = missingService('postgis');
if (missing === null) {
  useE2eStore('postgres');
  await import('../e2e/server.test.js');
} else {
  describe.skip(`the e2e suite on the PostgreSQL store [skipped: ${missing}]`, () => {
    it('every binding, every test of test/e2e/server.test.ts', () => undefined);
  });
}
