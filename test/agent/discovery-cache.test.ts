/**
 * The bridge's business directory caches discovery by the overview's rules for profiles: a
 * negotiated business is reused while its profile is fresh (Cache-Control, 60 s floor); once
 * stale the profile is refreshed (served stale meanwhile, as the fetch cache does), and the
 * business renegotiated only when the document changed.
 * A failing business is tried again on a later call. A real business behind a counting proxy; the
 * clock is the test's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusinessDirectory } from '../../src/agent/businesses.js';
import { buildPlatformProfile } from '../../src/client/platform-profile.js';
import { serveProfilesOnLoopback, type LoopbackProfileServer } from '../../src/client/loopback-profile-server.js';
import { closedPort, dataset, startBusiness, startProxy } from './support/fleet.js';

describe('agent business directory: discovery cached by the profile rules', () => {
  let business: Awaited<ReturnType<typeof startBusiness>>;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let profiles: LoopbackProfileServer;
  let directory: BusinessDirectory | undefined;

  beforeAll(async () => {
    business = await startBusiness(dataset({ prefix: 'cache', turn: 0 }));
    proxy = await startProxy(business.url, {});
    profiles = await serveProfilesOnLoopback(new Map([['/platform.json', buildPlatformProfile()]]), { maxAgeSeconds: 300 });
  });

  afterAll(async () => {
    await directory?.close();
    await proxy?.close();
    await business?.close();
    await profiles?.close();
  });

  it('reuses the negotiated business while fresh, keeps it when the stale profile is unchanged, renegotiates when it changed', async () => {
    let now = Date.now();
    const down = await closedPort();
    directory = new BusinessDirectory(
      [
        { name: 'cache', url: proxy.url, timeoutMs: 5000, transport: 'auto' },
        { name: 'down', url: `http://127.0.0.1:${down}`, timeoutMs: 5000, transport: 'auto' },
      ],
      { platformProfileUrl: `${profiles.origin}/platform.json`, allowLoopback: true, now: () => now },
    );
    const handle = directory.find('cache');
    if (handle === undefined) throw new Error('configured business not found');
    const profileFetches = (): number => proxy.requests.filter((r) => r === 'GET /.well-known/ucp').length;

    const first = await directory.client(handle);
    expect(first.negotiated.transport).toBe('mcp');
    expect(profileFetches()).toBe(1);

    now += 200_000; // within max-age=300
    expect(await directory.client(handle)).toBe(first);
    expect(profileFetches()).toBe(1);

    now += 200_000; // stale: served while refreshed in the background; the same document keeps the same negotiation
    expect(await directory.client(handle)).toBe(first);
    await directory.idle();
    expect(profileFetches()).toBe(2);

    proxy.reconfigure({ only: 'rest' });
    now += 400_000; // stale again: the refresh brings a profile that offers REST only …
    expect(await directory.client(handle)).toBe(first);
    await directory.idle();
    expect(profileFetches()).toBe(3);
    now += 61_000; // … and the next look at it renegotiates
    const second = await directory.client(handle);
    expect(second).not.toBe(first);
    expect(second.negotiated.transport).toBe('rest');
    expect(directory.report(handle)).toMatchObject({ status: 'ok', transport: 'rest' });
    expect(await directory.client(handle)).toBe(second);

    // A business that fails is reported, and tried again later rather than given up on.
    const dead = directory.find('down');
    if (dead === undefined) throw new Error('configured business not found');
    await expect(directory.client(dead)).rejects.toThrow(/ECONNREFUSED/);
    expect(directory.report(dead)).toMatchObject({ status: 'unreachable', reason: expect.stringMatching(/^down could not be reached/) });
    now += 120_000;
    await expect(directory.client(dead)).rejects.toThrow(/ECONNREFUSED/);
  });
});
