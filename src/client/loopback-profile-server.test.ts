import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveProfilesOnLoopback, type LoopbackProfileServer } from './loopback-profile-server.js';

describe('serveProfilesOnLoopback (hosting as R-D5 asks)', () => {
  let server: LoopbackProfileServer;
  const profile = { ucp: { version: '2026-08-25', capabilities: {} } };

  beforeAll(async () => {
    server = await serveProfilesOnLoopback(new Map<string, unknown>([['/p.json', profile]]), { maxAgeSeconds: 120 });
  });

  afterAll(async () => {
    await server.close();
  });

  it('listens on 127.0.0.1 only', () => {
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('serves the document as cacheable JSON with a strong ETag, ignoring the query string', async () => {
    const response = await request(`${server.origin}/p.json?x=1`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['cache-control']).toBe('public, max-age=120');
    expect(response.headers['etag']).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(await response.body.json()).toEqual(profile);
  });

  it('answers 304 with the validators when If-None-Match names the current ETag', async () => {
    const first = await request(`${server.origin}/p.json`);
    await first.body.dump();
    const etag = String(first.headers['etag']);
    const again = await request(`${server.origin}/p.json`, { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.headers['etag']).toBe(etag);
    expect(again.headers['cache-control']).toBe('public, max-age=120');
    await again.body.dump();
    const stale = await request(`${server.origin}/p.json`, { headers: { 'if-none-match': '"other"' } });
    expect(stale.statusCode).toBe(200);
    await stale.body.dump();
  });

  it('answers HEAD with the length but no body', async () => {
    const response = await request(`${server.origin}/p.json`, { method: 'HEAD' });
    expect(response.statusCode).toBe(200);
    expect(Number(response.headers['content-length'])).toBe(JSON.stringify(profile).length);
    expect(await response.body.text()).toBe('');
  });

  it('is a 404 for any other path or method', async () => {
    for (const [path, method] of [
      ['/other.json', 'GET'],
      ['/p.json', 'POST'],
    ] as const) {
      const response = await request(`${server.origin}${path}`, { method });
      expect(response.statusCode).toBe(404);
      await response.body.dump();
    }
  });
});
