/**
 * Our own business server on loopback, over a real SQLite store holding the contract fixture, as
 * the peer of the passing conformance run and the upstream of the faulty shims.
 */
import { join } from 'node:path';
import { inScratchDir } from '../support/scratch.js';
import type { ServerConfig } from '../../src/config.js';
import type { LocationRecord } from '../../src/domain/location.js';
import { createLogger } from '../../src/logging.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import { fixtureRecords, PRIVATE_ALIASES, PRIVATE_IDS } from '../contract/fixture.js';
import type { ConformanceOptions } from '../../src/conformance/index.js';

/** What the operator of the fixture business knows: its private Locations and an alias. */
export const HINTS = {
  serveProfile: true,
  allowLoopback: true,
  privateIds: [...PRIVATE_IDS, ...PRIVATE_ALIASES],
  aliases: [{ alias: 'downtown-store', id: 'loc_downtown' }],
} satisfies Omit<ConformanceOptions, 'businessUrl'>;

export interface OurServer {
  server: RunningServer;
  close(): Promise<void>;
}

/**
 * @param baseUrl public origin to advertise (a shim in front of us); default our own address.
 * @param records the dataset; default the contract fixture.
 * @param config server configuration (limits, rate limits); default all defaults.
 */
export async function startOurServer(
  options: { baseUrl?: string; records?: LocationRecord[]; config?: ServerConfig } = {},
): Promise<OurServer> {
  const { store, server, remove } = await inScratchDir('ucp-conformance', async (dir) => {
    const store = await SqliteLocationStore.open(join(dir, 'locations.db'));
    try {
      await store.replaceAll(options.records ?? fixtureRecords());
      const server = await startServer({
        host: '127.0.0.1',
        port: 0,
        store,
        allowLoopbackProfiles: true,
        logger: createLogger({ level: 'silent' }),
        ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
        ...(options.config === undefined ? {} : { config: options.config }),
      });
      return { store, server };
    } catch (error) {
      await store.close();
      throw error;
    }
  });
  return {
    server,
    close: async () => {
      await server.close();
      await store.close();
      remove();
    },
  };
}
