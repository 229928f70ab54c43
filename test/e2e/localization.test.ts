/**
 * Answers in the buyer's language (R-C3), end to end over the bundled demo dataset: REST
 * `Accept-Language` (with weights) and `Content-Language`, `context.language` over REST and
 * through the official MCP SDK client, and config `dataLanguage` for records without a language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { startInProcessServer } from '../support/in-process-server.js';
import type { RunningServer } from '../../src/server.js';
import { postJson } from '../../src/transport/test-support/raw-http.js';
import type { RawResponse } from '../../src/transport/test-support/raw-http.js';
import { openBinding } from './support/bindings.js';
import type { Binding } from './support/bindings.js';
import { startPlatforms, testResolver } from './support/platform.js';
import type { Platforms } from './support/platform.js';

const WIFI = 'dev.ucp.amenity.wi_fi';
const BERLIN = 'loc_berlin_kreuzberg';
const NEW_YORK = 'loc_new_york_hell_s_kitchen';

interface Loc {
  id: string;
  name: string;
  amenities?: Record<string, { description: string }>;
  exception_hours?: { title?: string; valid_from: string }[];
}

let platforms: Platforms;
let server: RunningServer;

beforeAll(async () => {
  platforms = await startPlatforms();
  server = await startInProcessServer({
    host: '127.0.0.1',
    port: 0,
    // The demo as `serve` runs it, its holidays counted from a pinned day.
    now: () => Date.parse('2026-12-01T12:00:00Z'),
    allowLoopbackProfiles: true,
    resolveHost: testResolver,
    logger: createLogger({ level: 'silent', destination: 'stderr' }),
    config: parseConfig({ cursorSecret: 'e2e-cursor-secret-0123456789abcdef0123456789', dataLanguage: 'en' }),
  });
});

afterAll(async () => {
  await server?.close();
  await platforms?.close();
});

async function rest(operation: 'search' | 'lookup', body: unknown, acceptLanguage?: string): Promise<RawResponse & { locations: Loc[] }> {
  const headers: Record<string, string> = { 'ucp-agent': `profile="${platforms.good}"` };
  if (acceptLanguage !== undefined) headers['accept-language'] = acceptLanguage;
  const response = await postJson(`${server.url}/ucp/locations/${operation}`, body, headers);
  expect(response.status, response.text).toBe(200);
  return { ...response, locations: (response.json as { locations: Loc[] }).locations };
}

const only = (r: { locations: Loc[] }): Loc => {
  expect(r.locations).toHaveLength(1);
  return r.locations[0] as Loc;
};

describe('REST: Accept-Language and Content-Language (R-C3)', () => {
  it('answers a German store in English for Accept-Language en, and says so', async () => {
    const r = await rest('lookup', { ids: [BERLIN] }, 'en-US,en;q=0.9,de;q=0.5');
    const berlin = only(r);
    expect(berlin.amenities?.[WIFI]?.description).toBe('Free Wi-Fi');
    expect(berlin.exception_hours?.find((e) => e.valid_from === '2026-12-24')?.title).toBe('Christmas Eve');
    expect(r.headers['content-language']).toBe('en');
    expect(r.headers['vary']).toMatch(/Accept-Language/);
  });

  it('keeps the own strings when nothing better is acceptable, by weight (R-C3)', async () => {
    const r = await rest('lookup', { ids: [BERLIN] }, 'ja;q=0.2, de;q=0.8, en;q=0');
    expect(only(r).amenities?.[WIFI]?.description).toBe('Kostenloses WLAN');
    expect(r.headers['content-language']).toBe('de');
    const plain = await rest('lookup', { ids: [BERLIN] });
    expect(only(plain).amenities?.[WIFI]?.description).toBe('Kostenloses WLAN');
    expect(plain.headers['content-language']).toBe('de');
  });

  it('context.language overrides Accept-Language', async () => {
    const r = await rest('lookup', { ids: [BERLIN], context: { language: 'de-AT' } }, 'en');
    expect(only(r).amenities?.[WIFI]?.description).toBe('Kostenloses WLAN');
    expect(r.headers['content-language']).toBe('de');
  });

  it('search answers in Japanese and lists every language the page used', async () => {
    const r = await rest('search', { query: "Hell's Kitchen", pagination: { limit: 1 } }, 'ja-JP');
    expect(only(r)).toMatchObject({ id: NEW_YORK, name: 'メリディアン・マーケット ヘルズ・キッチン' });
    expect(r.headers['content-language']).toBe('ja');
    const mixed = await rest('lookup', { ids: [NEW_YORK, BERLIN, 'loc_downtown'] }, 'fr-CH');
    const names = mixed.locations.map((l) => l.id);
    expect(names).toEqual([NEW_YORK, BERLIN, 'loc_downtown']);
    expect(mixed.locations[0]?.exception_hours?.find((e) => e.valid_from === '2026-12-25')?.title).toBe('Noël');
    // New York in French, Berlin in its own German, Downtown in the configured dataLanguage.
    expect(mixed.headers['content-language']).toBe('fr, de, en');
  });
});

describe('MCP: context.language (R-C3)', () => {
  let binding: Binding;
  beforeAll(async () => {
    binding = await openBinding('mcp-sdk', server.url);
  });
  afterAll(async () => {
    await binding?.close();
  });

  it('answers the Berlin store in English for context.language "en", the same payload as REST', async () => {
    const request = { ids: [BERLIN], context: { language: 'en' } };
    const outcome = await binding.call('lookup', request, platforms.good);
    if (!outcome.ok) throw new Error(`expected success, got ${outcome.message}`);
    const berlin = only(outcome.payload as { locations: Loc[] });
    expect(berlin.amenities?.[WIFI]?.description).toBe('Free Wi-Fi');
    expect(outcome.payload).toEqual((await rest('lookup', request)).json);
  });
});
