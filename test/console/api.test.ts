/**
 * The console's HTTP API without a browser: who may call it (token off loopback, constant-time
 * check, Host header on loopback, the API header), and what it answers — explanations computed by
 * the engine's own predicates, the hours week, and import preview and commit through the CLI's path.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { compileSchedule, isOpenCompiled, nextChange, parseInstant } from '../../src/domain/hours.js';
import { geodesicDistanceMeters } from '../../src/domain/geodesy.js';
import { checkAccessSettings, isLoopbackHost, tokenMatches } from '../../src/console/access.js';
import { startConsole, type RunningConsole } from '../../src/console/server.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import { postJson, rawRequest } from '../../src/transport/test-support/raw-http.js';
import { useScratchDir } from '../support/scratch.js';
import { buildDemoStore, demoAvailability, demoRecords, TOKEN } from './support.js';

const scratch = useScratchDir('ucp-console-api');
const API = { 'x-ucp-console': '1' };
let store: SqliteLocationStore;
let open: RunningConsole;
let guarded: RunningConsole;

beforeAll(async () => {
  store = await SqliteLocationStore.open(await buildDemoStore(scratch()));
  open = await startConsole({ store, port: 0, now: () => parseInstant('2026-12-02T12:00:00Z') });
  guarded = await startConsole({ store, port: 0, token: TOKEN });
});

afterAll(async () => {
  await open?.close();
  await guarded?.close();
  await store?.close();
});

describe('console access', () => {
  it('refuses to listen off loopback without a token, naming --token and UCP_CONSOLE_TOKEN', async () => {
    for (const host of ['0.0.0.0', '192.0.2.10', '::']) {
      await expect(startConsole({ store, host, port: 0 })).rejects.toThrow(/--token <secret> or set UCP_CONSOLE_TOKEN/);
    }
    expect(() => checkAccessSettings('192.0.2.10', TOKEN)).not.toThrow();
  });

  it('refuses a short token', () => {
    expect(() => checkAccessSettings('127.0.0.1', 'short')).toThrow(ConfigError);
  });

  it('tells loopback addresses from others', () => {
    expect(['127.0.0.1', '127.8.9.10', '::1', '[::1]', 'localhost'].map(isLoopbackHost)).toEqual([true, true, true, true, true]);
    expect(['0.0.0.0', '10.0.0.1', '::', 'example.org'].map(isLoopbackHost)).toEqual([false, false, false, false]);
  });

  it('compares tokens whatever their length', () => {
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    expect(tokenMatches(TOKEN, `${TOKEN}x`)).toBe(false);
    expect(tokenMatches(TOKEN, '')).toBe(false);
    expect(tokenMatches(TOKEN, undefined)).toBe(false);
  });

  it('answers 401 to an API call or a page without the token, and serves them with it', async () => {
    const base = guarded.url;
    const bare = await rawRequest(`${base}api/overview`, { headers: API });
    expect(bare.status).toBe(401);
    expect((bare.json as { error: { message: string } }).error.message).toMatch(/token/);
    expect((await rawRequest(`${base}api/overview`, { headers: { ...API, authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(
      401,
    );
    expect((await rawRequest(`${base}api/overview`, { headers: { ...API, authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    expect((await rawRequest(base)).status).toBe(401);
    expect((await rawRequest(`${base}app.css`)).status).toBe(401);
  });

  it('keeps the token from ?token= in an HttpOnly cookie and drops it from the address', async () => {
    const first = await rawRequest(`${guarded.url}?token=${TOKEN}`);
    expect(first.status).toBe(303);
    expect(first.headers['location']).toBe('/');
    const cookie = String(first.headers['set-cookie']).split(';')[0] ?? '';
    expect(String(first.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    const overview = await rawRequest(`${guarded.url}api/overview`, { headers: { ...API, cookie } });
    expect(overview.status).toBe(200);
  });

  it('refuses API calls without its header, and pages asked for under a foreign Host name', async () => {
    expect((await rawRequest(`${open.url}api/overview`)).status).toBe(403);
    const rebound = await rawRequest(`${open.url}api/overview`, { headers: { ...API, host: 'attacker.example' } });
    expect(rebound.status).toBe(403);
    expect((await rawRequest(`${open.url}api/overview`, { headers: { ...API, host: `localhost:${open.port}` } })).status).toBe(200);
  });
});

interface Verdict {
  predicate: string;
  pass: boolean;
  why: string;
  [k: string]: unknown;
}

async function explain(request: unknown, id: string): Promise<{ matched: boolean; verdicts: Verdict[]; notFound?: string }> {
  const res = await postJson(`${open.url}api/explain`, { request, id }, API);
  expect(res.status).toBe(200);
  return res.json as { matched: boolean; verdicts: Verdict[] };
}

async function search(request: unknown): Promise<string[]> {
  const res = await postJson(`${open.url}api/search`, { request }, API);
  expect(res.status).toBe(200);
  return (res.json as { response: { locations: { id: string }[] } }).response.locations.map((l) => l.id);
}

describe('why not matched, by the engine’s own predicates (R-S4..R-S8)', () => {
  const records = demoRecords().filter((r) => r.visibility !== 'private');
  const subject = records.find((r) => r.geo !== undefined && r.serves?.radius_m !== undefined && (r.aliases?.length ?? 0) > 0);
  if (subject === undefined) throw new Error('the demo dataset has no public Location with geo, radius and an alias');
  const geo = subject.geo!;

  it('reports the distance against max, both ways, and agrees with the search (R-S4)', async () => {
    const center = { latitude: geo.latitude + 0.05, longitude: geo.longitude };
    const d = geodesicDistanceMeters(center, geo);
    const near = await explain({ distance: { center, max: Math.ceil(d) } }, subject.id);
    expect(near.verdicts[0]).toMatchObject({ predicate: 'distance', pass: true, distanceMeters: d });
    const far = await explain({ distance: { center, max: Math.floor(d) } }, subject.id);
    expect(far).toMatchObject({
      matched: false,
      verdicts: [{ predicate: 'distance', pass: false, distanceMeters: d, maxMeters: Math.floor(d) }],
    });
    expect(await search({ distance: { center, max: Math.floor(d) }, pagination: { limit: 50 } })).not.toContain(subject.id);
    expect(await search({ distance: { center, max: Math.ceil(d) }, pagination: { limit: 50 } })).toContain(subject.id);
  });

  it('resolves an alias and explains a serves.point outside the radius (R-S5)', async () => {
    const alias = subject.aliases![0]!;
    const point = { latitude: geo.latitude + 1, longitude: geo.longitude };
    const r = await explain({ serves: { point } }, alias);
    expect(r.verdicts[0]).toMatchObject({
      predicate: 'serves.point',
      pass: false,
      radiusMeters: subject.serves!.radius_m,
      distanceMeters: geodesicDistanceMeters(geo, point),
    });
  });

  it('explains a serves.address in another country (R-S5)', async () => {
    const other = records.find((r) => r.address?.address_country !== subject.address?.address_country && r.serves?.countries === undefined);
    const country = other?.address?.address_country ?? 'ZZ';
    const r = await explain({ serves: { address: { address_country: country } } }, subject.id);
    expect(r.verdicts[0]).toMatchObject({ predicate: 'serves.address', pass: (subject.serves?.countries ?? []).includes(country) });
  });

  it('names the hours rule applied at the instant, in the Location’s zone (R-S6)', async () => {
    const withClosure = records.find((r) => r.exception_hours?.some((e) => e.opens === undefined && e.title !== undefined));
    const closure = withClosure?.exception_hours?.find((e) => e.opens === undefined && e.title !== undefined);
    if (withClosure === undefined || closure === undefined) throw new Error('the demo dataset has no titled closure');
    const zone = withClosure.timezone!;
    // Noon local on the closure's first day, written in UTC: the offset must not matter.
    const openAt = DateTime.fromISO(`${closure.valid_from}T12:00:00`, { zone }).toUTC().toISO() ?? '';
    const r = await explain({ filters: { hours: { open_at: openAt } } }, withClosure.id);
    const v = r.verdicts[0]!;
    expect(v).toMatchObject({
      predicate: 'hours',
      pass: false,
      explanation: { timezone: zone, rule: { kind: 'exception', closure: true, titles: [closure.title] } },
    });
    expect(v.why).toContain(closure.title!);
    expect(v.pass).toBe(isOpenCompiled(compileSchedule(withClosure), parseInstant(openAt)));
  });

  it('lists the missing amenities only (R-S7)', async () => {
    const has = Object.keys(subject.amenities ?? {});
    const lacking = [...new Set(records.flatMap((r) => Object.keys(r.amenities ?? {})))].find((a) => !has.includes(a));
    if (lacking === undefined || has[0] === undefined) throw new Error('no amenity to miss');
    const r = await explain({ filters: { amenities: [has[0], lacking] } }, subject.id);
    expect(r.verdicts[0]).toMatchObject({ predicate: 'amenities', pass: false, missing: [lacking] });
  });

  it('tells unavailable items from unknown ones (R-S8)', async () => {
    const available = demoAvailability();
    const items = [...new Set([...available].map((k) => k.split('|')[1]!))];
    const here = items.find((i) => available.has(`${subject.id}|${i}`));
    const notHere = items.find((i) => !available.has(`${subject.id}|${i}`));
    if (here === undefined || notHere === undefined) throw new Error('the demo inventory lacks the items this test needs');
    const r = await explain({ filters: { items: [here, notHere, 'item_id_nobody_sells'] } }, subject.id);
    expect(r.verdicts[0]).toMatchObject({ predicate: 'items', pass: false, unavailable: [notHere], unknown: ['item_id_nobody_sells'] });
    expect((await explain({ filters: { items: [here] } }, subject.id)).verdicts[0]).toMatchObject({ pass: true });
  });

  it('explains a text miss and a text hit', async () => {
    expect((await explain({ query: 'zzxqvv' }, subject.id)).verdicts[0]).toMatchObject({ predicate: 'query', pass: false });
    expect((await explain({ query: subject.name }, subject.id)).verdicts[0]).toMatchObject({ predicate: 'query', pass: true });
  });

  it('says a private Location is never in an answer', async () => {
    const hidden = demoRecords().find((r) => r.visibility === 'private');
    expect((await explain({}, hidden!.id)).notFound).toMatch(/private Locations are never in an answer/);
  });

  it('rejects an invalid request with its pointer, as the MCP tool does', async () => {
    const res = await postJson(
      `${open.url}api/explain`,
      { request: { distance: { center: { latitude: 1, longitude: 2 }, max: -1 } }, id: subject.id },
      API,
    );
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: { pointer: '/distance/max' } });
  });
});

describe('hours week', () => {
  it('shows seven local days and the next change the engine computes', async () => {
    const subject = demoRecords().find((r) => r.visibility !== 'private' && (r.hours?.length ?? 0) > 0)!;
    const res = await rawRequest(`${open.url}api/hours?id=${subject.id}`, { headers: API });
    const week = res.json as { days: { open: [number, number][] }[]; nextChange: { at: string } | null; openNow: boolean };
    expect(week.days).toHaveLength(7);
    const now = parseInstant('2026-12-02T12:00:00Z');
    expect(week.nextChange?.at).toBe(nextChange(subject, now)?.at);
    expect(week.openNow).toBe(isOpenCompiled(compileSchedule(subject), now));
  });
});

describe('readable answers', () => {
  it('search rows give each result its rounded distance and open state; the JSON UCP answer is unchanged', async () => {
    const anchor = demoRecords().find((r) => r.visibility !== 'private' && r.geo !== undefined)!;
    const request = { distance: { center: anchor.geo!, max: 50_000 }, pagination: { limit: 5 } };
    const res = await postJson(`${open.url}api/search`, { request }, API);
    const body = res.json as {
      response: { locations: { id: string; geo?: { latitude: number; longitude: number } }[] };
      rows: { id: string; distance: string; distanceMeters: number; hours: { state: string; text: string } }[];
    };
    expect(body.rows.map((r) => r.id)).toEqual(body.response.locations.map((l) => l.id));
    for (const [i, row] of body.rows.entries()) {
      const d = geodesicDistanceMeters(anchor.geo!, body.response.locations[i]!.geo!);
      expect(row.distanceMeters).toBeCloseTo(d, 6);
      expect(row.distance).toMatch(d < 999.5 ? /^\d+ m$/ : /^\d+(\.\d)? km$/);
      expect(['open', 'closed', 'unknown']).toContain(row.hours.state);
    }
  });

  it('the location card says the address, today’s hours in the Location’s zone and amenities with descriptions', async () => {
    const subject = demoRecords().find(
      (r) => r.visibility !== 'private' && r.address?.street_address !== undefined && r.amenities !== undefined,
    )!;
    const card = (await rawRequest(`${open.url}api/location?id=${subject.id}`, { headers: API })).json as {
      address: string;
      timezone: string;
      amenities: { id: string; description: string }[];
    };
    expect(card.address.startsWith(subject.address!.street_address!)).toBe(true);
    expect(card.timezone).toBe(subject.timezone);
    expect(card.amenities).toEqual(Object.entries(subject.amenities!).map(([id, a]) => ({ id, description: a.description })));
    expect((await rawRequest(`${open.url}api/location?id=nope`, { headers: API })).status).toBe(404);
  });
});

describe('import preview and commit', () => {
  it('refuses an unknown format choice and a name without a known extension, saying what to do', async () => {
    const bogus = await rawRequest(`${open.url}api/import/preview?name=a.ndjson&format=xlsx`, { method: 'POST', headers: API, body: '{}' });
    expect(bogus.status).toBe(400);
    expect((bogus.json as { error: { message: string } }).error.message).toContain('ndjson, geojson, csv, osm, jsonld, gbp');
    const unnamed = await rawRequest(`${open.url}api/import/preview?name=stores.txt`, { method: 'POST', headers: API, body: '{}' });
    expect(unnamed.status).toBe(400);
    expect((unnamed.json as { error: { message: string } }).error.message).toContain('choose the format');
  });

  it('rejects a bad file with its line and field, writing nothing', async () => {
    const before = await store.generation();
    const good = JSON.stringify(demoRecords()[0]);
    const bad = JSON.stringify({ ...demoRecords()[1], geo: { latitude: 123, longitude: 0 } });
    const res = await rawRequest(`${open.url}api/import/preview?name=stores.ndjson`, {
      method: 'POST',
      headers: API,
      body: `${good}\n${bad}\n`,
    });
    expect(res.status).toBe(200);
    const report = res.json as { ok: boolean; previewId?: string; issues: { text: string; line: number; field: string }[] };
    expect(report.ok).toBe(false);
    expect(report.previewId).toBeUndefined();
    expect(report.issues[0]).toMatchObject({ line: 2, field: 'geo.latitude' });
    expect(report.issues[0]!.text).toMatch(/^stores\.ndjson:2 geo\.latitude: /);
    expect(await store.generation()).toBe(before);
  });

  it('commits a valid file through the CLI’s atomic import path', async () => {
    const records = demoRecords().slice(0, 3);
    const body = records.map((r) => JSON.stringify(r)).join('\n');
    const preview = (await rawRequest(`${open.url}api/import/preview?name=three.ndjson`, { method: 'POST', headers: API, body })).json as {
      ok: boolean;
      previewId: string;
      records: number;
    };
    expect(preview).toMatchObject({ ok: true, records: 3 });
    const commit = await postJson(`${open.url}api/import/commit`, { previewId: preview.previewId }, API);
    expect(commit.status).toBe(200);
    expect((await store.stats()).locations).toBe(3);
    const overview = (await rawRequest(`${open.url}api/overview`, { headers: API })).json as {
      lastImport: { locations: number; files: { file: string }[] };
    };
    expect(overview.lastImport).toMatchObject({ locations: 3, files: [{ file: 'three.ndjson' }] });
    // A preview commits once.
    expect((await postJson(`${open.url}api/import/commit`, { previewId: preview.previewId }, API)).status).toBe(400);
  });
});
