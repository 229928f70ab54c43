/**
 * The console in a real browser (Debian's chromium through playwright-core): every page loads
 * without a console error and without a serious accessibility violation (axe-core), the
 * playground's answer is the MCP tool's answer, "why not matched" explains a known non-match for
 * each predicate kind, and the import page rejects a bad file with its line.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DateTime } from 'luxon';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { geodesicDistanceMeters } from '../../src/domain/geodesy.js';
import type { SearchRequest } from '../../src/domain/requests.js';
import { createLogger } from '../../src/logging.js';
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
    consoleServer = await startConsole({ store, port: 0 });
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

  it('loads every page with no console error and no serious or critical axe violation', async () => {
    for (const [name, ready] of PAGES) {
      await visit(name, ready);
      // Evaluated over the DevTools protocol: the console's CSP rightly refuses an inline script tag.
      await page.evaluate(AXE_SOURCE);
      // A string, not a function: the test program has no DOM types, the page has.
      const violations = await page.evaluate<string[]>(`(async () => {
        const result = await axe.run();
        if (result.passes.length === 0) return ['axe checked nothing'];
        return result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => v.id + ' (' + v.impact + '): ' + JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target)));
      })()`);
      expect(violations, `axe on #/${name}`).toEqual([]);
    }
    expect(errors).toEqual([]);
  }, 120_000);

  it('answers a playground search with the ids the MCP tool returns for the same request, page after page', async () => {
    const anchor = demoRecords().find((r) => r.visibility !== 'private' && r.address?.address_country === 'US' && r.geo !== undefined)!;
    await visit('playground', 'form button[type=submit]');
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
    await page.getByLabel(lacking, { exact: true }).check();
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
    expect(rows['distance']!.text).toContain(`${(geodesicDistanceMeters(center, geo) / 1000).toFixed(3)} km from the centre`);
    expect(rows['serves.point']!.text).toContain(`${(geodesicDistanceMeters(geo, point) / 1000).toFixed(3)} km away`);
    expect(rows['hours']!.text).toContain(`${closure.valid_from}T12:00:00`);
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
    expect(await page.textContent('[data-testid=import-issues] tbody tr')).toMatch(/bad\.ndjson:2\s*hours\[0\]\.day/);
    expect(await page.locator('button:has-text("Replace the dataset")').count()).toBe(0);
    expect(await store.generation()).toBe(generation);
  }, 60_000);
});
