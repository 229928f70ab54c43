/**
 * The console in a real browser (Debian's chromium through playwright-core): every page loads
 * without a console error and without a serious accessibility violation (axe-core), the
 * playground's answer is the MCP tool's answer, "why not matched" explains a known non-match for
 * each predicate kind, and the import page rejects a bad file with its line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DateTime } from 'luxon';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { geodesicDistanceMeters } from '../../src/domain/geodesy.js';
import type { SearchRequest } from '../../src/domain/requests.js';
import { createLogger } from '../../src/logging.js';
import { readableMeters } from '../../src/console/readable.js';
import { startConsole, type RunningConsole } from '../../src/console/server.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import { startPlatforms, testResolver, type Platforms } from '../e2e/support/platform.js';
import { launchChromium } from '../support/browser.js';
import { useScratchDir } from '../support/scratch.js';
import { describeWith } from '../support/services.js';
import { buildDemoStore, demoAvailability, demoRecords } from './support.js';

const PAGES = [
  ['overview', '[data-testid=count-public]'],
  ['map', 'svg .pt, svg .cluster'],
  ['playground', 'form button[type=submit]'],
  ['why', '#why-id'],
  ['hours', 'table.week'],
  ['import', '#import-file'],
] as const;

/** The console's "now" in every test: Thursday 3 December 2026, 15:35 in Berlin. */
const NOW = Date.parse('2026-12-03T14:35:00Z');

const OSM_EXAMPLE = fileURLToPath(new URL('../../examples/osm/stores.geojson', import.meta.url));

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

describeWith(['chromium'], 'operator console in chromium', () => {
  const scratch = useScratchDir('ucp-console-browser');
  let store: SqliteLocationStore;
  let consoleServer: RunningConsole;
  let business: RunningServer;
  let platforms: Platforms;
  let mcp: Client;
  let browser: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    const path = await buildDemoStore(scratch());
    store = await SqliteLocationStore.open(path);
    consoleServer = await startConsole({ store, port: 0, now: () => NOW });
    platforms = await startPlatforms();
    business = await startServer({
      host: '127.0.0.1',
      port: 0,
      db: path,
      allowLoopbackProfiles: true,
      resolveHost: testResolver,
      logger: createLogger({ level: 'silent', destination: 'stderr' }),
      config: parseConfig({ cursorSecret: 'console-browser-cursor-secret-0123456789abcdef' }),
    });
    mcp = new Client({ name: 'ucp-location-console-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${business.url}/ucp/mcp`)));
    browser = await launchChromium(scratch());
    page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await mcp?.close();
    await business?.close();
    await platforms?.close();
    await consoleServer?.close();
    await store?.close();
  });

  async function visit(name: string, ready: string): Promise<void> {
    await page.goto(`${consoleServer.url}#/${name}`);
    await page.waitForSelector(ready, { timeout: 15_000 });
    await page.waitForLoadState('networkidle');
  }

  async function mcpSearch(request: SearchRequest): Promise<{ ids: string[]; cursor?: string }> {
    const result = await mcp.callTool({
      name: 'search_locations',
      arguments: { meta: { 'ucp-agent': { profile: platforms.good } }, location: request },
    });
    expect(result.isError).not.toBe(true);
    const payload = result.structuredContent as { locations: { id: string }[]; pagination: { cursor?: string } };
    const out: { ids: string[]; cursor?: string } = { ids: payload.locations.map((l) => l.id) };
    if (payload.pagination.cursor !== undefined) out.cursor = payload.pagination.cursor;
    return out;
  }

  async function shownIds(): Promise<string[]> {
    const items = page.locator('[data-testid=results] li');
    const ids: string[] = [];
    for (let i = 0; i < (await items.count()); i++) ids.push((await items.nth(i).getAttribute('data-id')) ?? '');
    return ids;
  }

  /** Serious or critical axe-core violations of the page as it is now. */
  async function axeViolations(): Promise<string[]> {
    // Evaluated over the DevTools protocol: the console's CSP rightly refuses an inline script tag.
    await page.evaluate(AXE_SOURCE);
    // A string, not a function: the test program has no DOM types, the page has.
    return page.evaluate<string[]>(`(async () => {
      const result = await axe.run();
      if (result.passes.length === 0) return ['axe checked nothing'];
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => v.id + ' (' + v.impact + '): ' + JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target)));
    })()`);
  }

  it('loads every page with no console error and no serious or critical axe violation', async () => {
    for (const [name, ready] of PAGES) {
      await visit(name, ready);
      expect(await axeViolations(), `axe on #/${name}`).toEqual([]);
    }
    expect(errors).toEqual([]);
  }, 120_000);

  it('answers a playground search with the ids the MCP tool returns for the same request, page after page', async () => {
    const anchor = demoRecords().find((r) => r.visibility !== 'private' && r.address?.address_country === 'US' && r.geo !== undefined)!;
    await visit('playground', 'form button[type=submit]');
    // The time picker starts in the zone most public Locations are in, not in UTC.
    const zones = new Map<string, number>();
    for (const r of demoRecords())
      if (r.visibility !== 'private' && r.timezone !== undefined) zones.set(r.timezone, (zones.get(r.timezone) ?? 0) + 1);
    const common = [...zones].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
    expect(common).not.toBe('UTC');
    expect(await page.inputValue('#ozone')).toBe(common);
    // A click on the map sets the distance centre; the form then takes exact coordinates.
    await page.click('svg[aria-roledescription=map]', { position: { x: 300, y: 200 } });
    expect(await page.inputValue('#clat')).not.toBe('');
    await page.fill('#q', 'grocery');
    await page.fill('#clat', String(anchor.geo!.latitude));
    await page.fill('#clon', String(anchor.geo!.longitude));
    await page.fill('#max', '500000');
    await page.fill('#size', '4');
    await page.click('form button[type=submit]');
    await page.waitForSelector('[data-testid=results] li');
    const request = JSON.parse((await page.textContent('[data-testid=request-json]')) ?? '{}') as SearchRequest;
    expect(request).toMatchObject({ query: 'grocery', distance: { max: 500000 }, pagination: { limit: 4 } });
    const first = await mcpSearch(request);
    expect(first.ids.length).toBe(4);
    expect(await shownIds()).toEqual(first.ids);
    // Each result says how far it is (rounded as people read it) and whether it is open, in its own zone.
    const byId = new Map(demoRecords().map((r) => [r.id, r]));
    for (let i = 0; i < first.ids.length; i++) {
      const geo = byId.get(first.ids[i]!)!.geo!;
      const item = page.locator('[data-testid=results] li').nth(i);
      expect(await item.locator('[data-testid=result-distance]').textContent()).toBe(
        `${readableMeters(geodesicDistanceMeters(anchor.geo!, geo))} · `,
      );
      expect(await item.locator('[data-testid=result-hours]').textContent()).toMatch(
        /^(Open · (closes|no closing)|Closed · (opens|no opening)|Hours unknown)/,
      );
    }
    // The geodesic circle is drawn.
    expect(await page.locator('path.shape.search').count()).toBe(1);

    await page.click('text=Next page');
    // Polled from here, not with a string page.waitForFunction: the console's CSP forbids the eval it needs.
    await expect
      .poll(() => page.locator('[data-testid=results] li').first().getAttribute('data-id'), { timeout: 15_000 })
      .not.toBe(first.ids[0]);
    const second = await mcpSearch({ ...request, pagination: { limit: 4, cursor: first.cursor! } });
    expect(await shownIds()).toEqual(second.ids);
    expect(errors).toEqual([]);
  }, 60_000);

  it('explains a known non-match for each predicate kind with the engine’s numbers', async () => {
    const records = demoRecords().filter((r) => r.visibility !== 'private');
    const subject = records.find(
      (r) =>
        r.geo !== undefined &&
        r.serves?.radius_m !== undefined &&
        r.exception_hours?.some((e) => e.opens === undefined && e.title !== undefined),
    )!;
    const geo = subject.geo!;
    const closure = subject.exception_hours!.find((e) => e.opens === undefined && e.title !== undefined)!;
    const lacking = [...new Set(records.flatMap((r) => Object.keys(r.amenities ?? {})))].find((a) => !(a in (subject.amenities ?? {})))!;
    const available = demoAvailability();
    const notHere = [...available].map((k) => k.split('|')[1]!).find((i) => !available.has(`${subject.id}|${i}`))!;
    const center = { latitude: geo.latitude + 0.2, longitude: geo.longitude };
    const point = { latitude: geo.latitude + 1, longitude: geo.longitude };

    await visit('playground', 'form button[type=submit]');
    await page.fill('#q', 'zzxqvv');
    await page.fill('#clat', String(center.latitude));
    await page.fill('#clon', String(center.longitude));
    await page.fill('#max', '1000');
    await page.check('input[name=serves][value=point]');
    await page.fill('#plat', String(point.latitude));
    await page.fill('#plon', String(point.longitude));
    await page.selectOption('#ozone', subject.timezone!);
    await page.fill('#olocal', `${closure.valid_from}T12:00`);
    const instant =
      DateTime.fromISO(`${closure.valid_from}T12:00:00`, { zone: subject.timezone! }).toISO({ suppressMilliseconds: true }) ?? '';
    await page.waitForSelector(`text=Sent as ${instant}`);
    // The checkbox is labelled with the amenity's description and its id.
    await page.locator(`.amenities .check:has(code:text-is("${lacking}")) input`).check();
    await page.fill('#items', notHere);

    await page.click('a[href="#/why"]');
    await page.fill('#why-id', subject.id);
    await page.click('form button:has-text("Explain")');
    await page.waitForSelector('[data-testid=verdicts]');
    const rows: Record<string, { pass: string | null; text: string }> = {};
    const trs = page.locator('[data-testid=verdicts] tbody tr');
    for (let i = 0; i < (await trs.count()); i++) {
      const tr = trs.nth(i);
      rows[(await tr.getAttribute('data-predicate')) ?? ''] = {
        pass: await tr.getAttribute('data-pass'),
        text: (await tr.textContent()) ?? '',
      };
    }
    expect(Object.keys(rows).sort()).toEqual(['amenities', 'distance', 'hours', 'items', 'query', 'serves.point']);
    for (const row of Object.values(rows)) expect(row.pass).toBe('false');
    expect(rows['distance']!.text).toContain(`${readableMeters(geodesicDistanceMeters(center, geo))} from the centre; max is 1 km`);
    expect(rows['serves.point']!.text).toContain(`${readableMeters(geodesicDistanceMeters(geo, point))} away`);
    expect(rows['hours']!.text).toContain(
      `${DateTime.fromISO(closure.valid_from, { locale: 'en' }).toFormat('ccc d LLL yyyy')}, 12:00 (UTC`,
    );
    expect(rows['hours']!.text).toContain(closure.title!);
    expect(rows['amenities']!.text).toContain(`lacks ${lacking}`);
    expect(rows['items']!.text).toContain(`${notHere} not available here`);
    expect(await page.textContent('[data-testid=why-summary]')).toContain('is not in the answer');
    expect(errors).toEqual([]);
  }, 60_000);

  it('rejects a bad import file in the preview, naming its line, and writes nothing', async () => {
    const generation = await store.generation();
    await visit('import', '#import-file');
    const [good, second] = demoRecords();
    const bad = { ...second, hours: [{ day: 'funday', opens: '09:00', closes: '17:00' }] };
    await page.setInputFiles('#import-file', {
      name: 'bad.ndjson',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(`${JSON.stringify(good)}\n${JSON.stringify(bad)}\n`),
    });
    await page.waitForSelector('[data-testid=import-issues]');
    expect(await page.textContent('[data-testid=import-summary]')).toMatch(/^Rejected: /);
    expect(await page.textContent('[data-testid=import-issues] tbody tr')).toMatch(/hours\[0\]\.day.*bad\.ndjson:2/);
    expect(await page.locator('button:has-text("Replace the dataset")').count()).toBe(0);
    expect(await store.generation()).toBe(generation);
  }, 60_000);

  describe('an OpenStreetMap chain imported through the Import page, on a fresh store', () => {
    let fresh: SqliteLocationStore;
    let chain: RunningConsole;
    const go = async (hash: string, ready: string): Promise<void> => {
      await page.goto(`${chain.url}#/${hash}`);
      await page.waitForSelector(ready, { timeout: 15_000 });
      await page.waitForLoadState('networkidle');
    };
    /** Wider than the viewport means the page scrolls sideways. */
    const overflow = (): Promise<number> => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');

    beforeAll(async () => {
      fresh = await SqliteLocationStore.open(join(scratch(), 'chain.db'));
      chain = await startConsole({ store: fresh, port: 0, now: () => NOW });
    });
    afterAll(async () => {
      await page?.setViewportSize({ width: 1280, height: 900 });
      await chain?.close();
      await fresh?.close();
    });

    it('reads an OSM export as plain GeoJSON with a hint to choose osm, each problem once; then imports it as osm', async () => {
      await go('import', '#import-file');
      await page.setInputFiles('#import-file', OSM_EXAMPLE);
      await page.waitForSelector('[data-testid=import-summary]');
      expect(await page.textContent('[data-testid=import-summary]')).toMatch(/^Rejected: .*read as geojson \(from the file name\)/);
      expect(await page.textContent('[data-testid=import-hints]')).toContain('OpenStreetMap GeoJSON (osm): choose that format');
      // Each distinct problem is one row, and the list of allowed fields is said once, not per row.
      const rows = await page.locator('[data-testid=import-issues] tbody tr').allTextContents();
      expect(new Set(rows).size).toBe(rows.length);
      expect(rows.filter((r) => r.includes('allowed fields'))).toEqual([]);
      expect(await page.locator('[data-testid=import-issues-allowed]').count()).toBeLessThanOrEqual(1);
      expect(await axeViolations(), 'axe on a rejected import').toEqual([]);
      expect(await fresh.generation()).toBe(0);

      await page.selectOption('#import-format', 'osm');
      await expect.poll(() => page.textContent('[data-testid=import-summary]'), { timeout: 15_000 }).toMatch(/^Valid: 5 record\(s\)/);
      const hints = (await page.textContent('[data-testid=import-hints]')) ?? '';
      expect(hints).toContain('Time zones derived from coordinates: ');
      expect(hints).toMatch(/\d+ warning\(s\)/);
      expect(await page.locator('[data-testid=import-warnings] tbody tr').count()).toBeGreaterThan(0);
      await page.click('button:has-text("Replace the dataset")');
      await page.waitForSelector('[data-testid=import-done]');
      expect((await fresh.stats()).locations).toBe(5);
      expect(errors).toEqual([]);
    }, 60_000);

    it('overview: Locations without usable hours, coordinates or address, and the import warnings the store kept, in plain words', async () => {
      await go('overview', '[data-testid=count-public]');
      expect(await page.textContent('[data-testid=count-no-hours]')).toBe('2');
      expect(await page.textContent('[data-testid=count-no-geo]')).toBe('0');
      expect(Number(await page.textContent('[data-testid=count-no-address]'))).toBeGreaterThan(0);
      expect(await page.textContent('[data-testid=last-import]')).toMatch(/stores\.geojson \(osm, 5 records\).* \d+ warning\(s\)/);
      expect(await page.textContent('[data-testid=import-warnings]')).toContain('opening_hours');
      const text = (await page.textContent('main')) ?? '';
      expect(text).not.toMatch(/generation|sqlite,|pair\(s\)/i);
      expect(await axeViolations(), 'axe on the overview with warnings').toEqual([]);
      // A second console on the same store file (another process) sees the same record: the store keeps it.
      const other = await startConsole({ store: fresh, port: 0, now: () => NOW });
      try {
        const res = await fetch(`${other.url}api/overview`, { headers: { 'x-ucp-console': '1' } });
        const body = (await res.json()) as { lastImport: { warningCount: number; files: { file: string }[] } };
        expect(body.lastImport.files).toEqual([expect.objectContaining({ file: 'stores.geojson' })]);
        expect(body.lastImport.warningCount).toBeGreaterThan(0);
      } finally {
        await other.close();
      }
    }, 60_000);

    it('hours: "Hours unknown" with the zone for hours dropped at import, never "closed"; on a 390-pixel phone nothing scrolls sideways', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await go('hours?id=osm-node-4004', '[data-testid=hours-now]');
      const status = (await page.textContent('[data-testid=hours-now]')) ?? '';
      expect(status).toContain('Hours unknown (Europe/Lisbon)');
      expect(status).not.toMatch(/closed/i);
      expect(await page.locator('[data-testid=day-hours]').allTextContents()).toEqual(Array<string>(7).fill('unknown'));
      expect(await axeViolations(), 'axe on unknown hours at 390 px').toEqual([]);
      expect(await overflow()).toBeLessThanOrEqual(0);

      // Berlin, Thursday 15:35: open, closing at 18:00 today; the now marker is on Thursday's row.
      await go('hours?id=osm-node-1001', '[data-testid=now-marker]');
      await expect.poll(() => page.textContent('[data-testid=hours-now]'), { timeout: 15_000 }).toContain('Open · closes 18:00 today');
      expect(await page.textContent('[data-testid=hours-now]')).toContain('now Thu 3 Dec, 15:35 local');
      expect(await page.textContent('tr.today th')).toContain('Thu');
      expect(await overflow()).toBeLessThanOrEqual(0);
      // The hour ticks are separate labels that do not touch.
      const ticks = page.locator('.scale span');
      expect(await ticks.allTextContents()).toEqual(['00', '06', '12', '18', '24']);
      let right = -Infinity;
      for (let i = 0; i < 5; i++) {
        const box = (await ticks.nth(i).boundingBox())!;
        expect(box.x).toBeGreaterThan(right);
        right = box.x + box.width;
      }
      for (const name of ['overview', 'import', 'playground']) {
        await go(name, 'main h1');
        expect(await overflow(), `#/${name} at 390 px`).toBeLessThanOrEqual(0);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      // "Opens 08:00 tomorrow" at night: the same schedule, read at 22:00.
      const night = await startConsole({ store: fresh, port: 0, now: () => Date.parse('2026-12-03T21:00:00Z') });
      try {
        const res = await fetch(`${night.url}api/hours?id=osm-node-1001`, { headers: { 'x-ucp-console': '1' } });
        expect(((await res.json()) as { status: { text: string } }).status.text).toBe('Closed · opens 08:00 tomorrow');
      } finally {
        await night.close();
      }
      expect(errors).toEqual([]);
    }, 60_000);

    it('map: a cluster of two stores 700 m apart splits in one click; the point panel; past the basemap detail the map says so', async () => {
      await go('import', '#import-file');
      const manhattan = { latitude: 40.7484, longitude: -73.9857 };
      const records = [
        {
          id: 'loc_midtown',
          name: 'Midtown',
          geo: manhattan,
          timezone: 'America/New_York',
          address: {
            street_address: '350 5th Ave',
            address_locality: 'New York',
            address_region: 'NY',
            postal_code: '10118',
            address_country: 'US',
          },
          hours: [{ day: 'thursday', opens: '08:00', closes: '20:00' }],
          amenities: { 'dev.ucp.amenity.parking': { description: 'Parking' } },
        },
        {
          id: 'loc_uptown',
          name: 'Uptown',
          geo: { latitude: manhattan.latitude + 0.0063, longitude: manhattan.longitude },
          timezone: 'America/New_York',
        },
        { id: 'loc_berlin', name: 'Berlin', geo: { latitude: 52.52, longitude: 13.405 }, timezone: 'Europe/Berlin' },
        { id: 'loc_tokyo', name: 'Tokyo', geo: { latitude: 35.68, longitude: 139.77 }, timezone: 'Asia/Tokyo' },
      ];
      expect(geodesicDistanceMeters(records[0]!.geo, records[1]!.geo)).toBeCloseTo(700, -1);
      await page.setInputFiles('#import-file', {
        name: 'two-close.ndjson',
        mimeType: 'application/x-ndjson',
        buffer: Buffer.from(records.map((r) => JSON.stringify(r)).join('\n')),
      });
      await page.click('button:has-text("Replace the dataset")');
      await page.waitForSelector('[data-testid=import-done]');

      await go('map', 'svg .cluster');
      // No two clusters overlap, so no count is hidden.
      const circles: { x: number; y: number; r: number }[] = [];
      const found = page.locator('svg .cluster circle');
      for (let i = 0; i < (await found.count()); i++) {
        const at = (name: string) => found.nth(i).getAttribute(name).then(Number);
        circles.push({ x: await at('cx'), y: await at('cy'), r: await at('r') });
      }
      expect(circles.length).toBeGreaterThan(0);
      for (const a of circles)
        for (const b of circles) if (a !== b) expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThanOrEqual(a.r + b.r);
      expect(await page.locator('[data-testid=basemap-note]').count()).toBe(0);
      const cluster = page.locator('svg .cluster[data-count="2"]');
      expect(await cluster.count()).toBe(1);
      await cluster.click();
      await expect.poll(() => page.locator('svg .pt[data-id=loc_uptown]').count()).toBe(1);
      expect(await page.locator('svg .pt[data-id=loc_midtown]').count()).toBe(1);
      expect(await page.locator('svg .cluster').count()).toBe(0);

      await page.locator('svg .pt[data-id=loc_midtown]').click();
      await page.waitForSelector('[data-testid=point-panel]');
      expect(await page.textContent('[data-testid=card-address]')).toBe('350 5th Ave, New York, NY 10118, US');
      expect(await page.textContent('[data-testid=card-hours]')).toBe('Open · closes 20:00 today');
      expect(await page.textContent('[data-testid=card-today]')).toBe('08:00–20:00 (America/New_York)');
      expect(await page.textContent('[data-testid=card-amenities]')).toContain('Parking dev.ucp.amenity.parking');
      expect(await axeViolations(), 'axe on the map with a point panel and the basemap note').toEqual([]);

      // Street level (where the split took the view): the offline basemap admits it is too coarse and points to --tile-url.
      expect(await page.textContent('[data-testid=basemap-note]')).toContain('--tile-url');
      await page.click('button:has-text("World")');
      expect(await page.locator('[data-testid=basemap-note]').count()).toBe(0);
      expect(errors).toEqual([]);
    }, 60_000);
  });
});
