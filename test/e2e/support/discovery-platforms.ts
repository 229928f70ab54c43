/**
 * The fixture of the suites that spend the new-origin discovery budget: one loopback server with a
 * cacheable Platform profile, reachable under any number of host names `<tag>.<domain>` (each an
 * origin of its own to the business) through an injected resolver, and business servers on the
 * demo dataset that use that resolver. Registers its own beforeAll/afterAll: every server it
 * started is closed after the file (or describe block) that called it.
 */
import { afterAll, beforeAll } from 'vitest';
import { parseConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/logging.js';
import type { Resolver } from '../../../src/protocol/safe-fetch.js';
import type { RunningServer, StartServerOptions } from '../../../src/server.js';
import { platformProfile } from '../../../src/transport/test-support/fake-parts.js';
import { json, startTestServer, type TestServer } from '../../support/http-server.js';

export interface DiscoveryPlatforms {
  /** A business on the demo dataset with this configuration, resolving `*.<domain>` to 127.0.0.1. */
  serve: (config?: Record<string, unknown>) => Promise<RunningServer>;
  /** The Platform profile's URL under `<tag>.<domain>`: a new origin for each new tag. */
  freshProfile: (tag: string) => string;
}

/**
 * `start` is `startServer` (real sockets) or `startInProcessServer` (no socket); `domain` names the
 * test's own fake DNS zone (`edges.test`, `budget.test`), so each suite's origins are its own.
 */
export function useDiscoveryPlatforms(domain: string, start: (options: StartServerOptions) => Promise<RunningServer>): DiscoveryPlatforms {
  let platforms: TestServer | undefined;
  const running: RunningServer[] = [];
  const resolver: Resolver = (hostname) =>
    hostname.endsWith(`.${domain}`)
      ? Promise.resolve([{ address: '127.0.0.1', family: 4 }])
      : Promise.reject(Object.assign(new Error(`no such host ${hostname}`), { code: 'ENOTFOUND' }));

  beforeAll(async () => {
    platforms = await startTestServer();
    platforms.route('/profile.json', json(platformProfile(), { 'cache-control': 'max-age=300' }));
  });

  afterAll(async () => {
    await Promise.all(running.map((s) => s.close()));
    await platforms?.close();
  });

  return {
    serve: async (config = {}) => {
      const server = await start({
        host: '127.0.0.1',
        port: 0,
        allowLoopbackProfiles: true,
        resolveHost: resolver,
        config: parseConfig(config),
        logger: createLogger({ level: 'silent' }),
      });
      running.push(server);
      return server;
    },
    freshProfile: (tag) => {
      if (platforms === undefined) throw new Error('freshProfile() used outside the tests of the suite that set it up');
      return `http://${tag}.${domain}:${new URL(platforms.origin('127.0.0.1')).port}/profile.json`;
    },
  };
}
