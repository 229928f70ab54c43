/**
 * The three-tenant isolation suite (isolation-suite.ts, R-T1) over a tenants directory: SQLite
 * stores, one `serve --tenants` process.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importFiles } from '../../src/data/import.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import { TenantRegistry } from '../../src/tenants/index.js';
import { useScratchDir } from '../support/scratch.js';
import { isolationSuite } from './isolation-suite.js';

const scratch = useScratchDir('ucp-tenants');

isolationSuite(
  'R-T1 one process, three businesses chosen by host name',
  async () => {
    const registry = new TenantRegistry(join(scratch(), 'tenants'));
    return {
      serveOptions: () => ({ tenants: registry.dir }),
      add: async (domain, records, config) => {
        const configFile = join(scratch(), `${domain}.config.json`);
        writeFileSync(configFile, JSON.stringify(config));
        const tenant = await registry.add(domain, { configFile });
        const dataFile = join(scratch(), `${domain}.ndjson`);
        writeFileSync(dataFile, records.map((r) => JSON.stringify(r)).join('\n'));
        const store = await SqliteLocationStore.open(tenant.storeFile);
        try {
          await importFiles(store, [dataFile]);
        } finally {
          await store.close();
        }
      },
    };
  },
  64_999,
);
