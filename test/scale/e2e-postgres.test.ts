/**
 * The MCP / REST end-to-end suite (test/e2e/server.test.ts, every binding) on the PostgreSQL
 * store: same test bodies, the server started with `db: postgres://…` instead of an SQLite file.
 */
import { useE2eStore } from '../e2e/support/store.js';

useE2eStore('postgres');
await import('../e2e/server.test.js');
