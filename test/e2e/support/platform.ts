/**
 * Platform profiles for the e2e tests, served by tiny HTTP servers on 127.0.0.1 (the business runs
 * with `allowLoopbackProfiles`). Failure cases get their own server — their own origin — because
 * the business backs off from an origin that failed, which would otherwise spill into other tests.
 */
import { json, startTestServer } from '../../support/http-server.js';
import type { TestServer } from '../../support/http-server.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY } from '../../../src/protocol/types.js';
import { platformProfile } from '../../../src/transport/test-support/fake-parts.js';
import type { Resolver } from '../../../src/protocol/safe-fetch.js';

const CACHEABLE = { 'cache-control': 'public, max-age=300' };

export interface Platforms {
  /** Offers search and lookup at 2026-08-25. */
  good: string;
  /** Offers lookup only: search negotiates to an empty intersection. */
  lookupOnly: string;
  /** Declares release 2026-01-11. */
  oldVersion: string;
  /** 302 to the good profile (redirects are never followed). */
  redirect: string;
  /** A 512 KiB profile (over the fetch size limit). */
  oversize: string;
  /** A name the injected resolver maps to 10.0.0.5 (never connected to). */
  privateAddress: string;
  /** A good profile at a URL of its own (for budgets keyed by profile). */
  fresh(tag: string): string;
  /** Requests that reached each server. */
  hits(): { main: number; redirect: number; oversize: number };
  close(): Promise<void>;
}

/** Maps the test-only private name to 10.0.0.5 and refuses every other name: no real DNS. */
export const testResolver: Resolver = (hostname) => {
  if (hostname === 'profiles.private.test') return Promise.resolve([{ address: '10.0.0.5', family: 4 }]);
  return Promise.reject(Object.assign(new Error(`test resolver: unknown host ${hostname}`), { code: 'ENOTFOUND' }));
};

export async function startPlatforms(): Promise<Platforms> {
  const main = await startTestServer();
  const redirect = await startTestServer();
  const oversize = await startTestServer();
  const origin = main.origin('127.0.0.1');
  main.route('/profile.json', json(platformProfile(), CACHEABLE));
  main.route('/lookup-only.json', json(platformProfile([LOOKUP_CAPABILITY]), CACHEABLE));
  main.route('/old-version.json', json(platformProfile([SEARCH_CAPABILITY, LOOKUP_CAPABILITY], '2026-01-11'), CACHEABLE));
  redirect.route('/profile.json', (_req, res) => void res.writeHead(302, { location: `${origin}/profile.json` }).end());
  const padding = 'x'.repeat(512 * 1024);
  oversize.route('/profile.json', json({ ...platformProfile(), padding }, CACHEABLE));
  const servers: TestServer[] = [main, redirect, oversize];
  return {
    good: `${origin}/profile.json`,
    lookupOnly: `${origin}/lookup-only.json`,
    oldVersion: `${origin}/old-version.json`,
    redirect: `${redirect.origin('127.0.0.1')}/profile.json`,
    oversize: `${oversize.origin('127.0.0.1')}/profile.json`,
    privateAddress: 'https://profiles.private.test/profile.json',
    fresh: (tag) => {
      main.route(`/${tag}.json`, json(platformProfile(), CACHEABLE));
      return `${origin}/${tag}.json`;
    },
    hits: () => ({ main: main.requests.length, redirect: redirect.requests.length, oversize: oversize.requests.length }),
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}
