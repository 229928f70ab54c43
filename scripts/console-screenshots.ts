/**
 * Regenerates the screenshots in docs/console.md: the demo dataset in a temporary store, the
 * console on a free loopback port with a fixed clock, and Debian's chromium (playwright-core)
 * visiting each page with a representative request.
 *
 *   npm run console:screenshots [-- outDir=docs/images/console]
 *
 * Needs `npm run build` first (the script `console:screenshots` does it) and /usr/bin/chromium
 * (or UCP_TEST_CHROMIUM). Everything but the PNG files goes into a temporary directory.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { importFiles } from '../src/data/import.js';
import { applyInventoryFile } from '../src/data/inventory.js';
import { parseInstant } from '../src/domain/hours.js';
import { startConsole } from '../src/console/server.js';
import { SqliteLocationStore } from '../src/store/sqlite/index.js';
import { chromiumMissing, launchChromium } from '../test/support/browser.js';

const out = resolve(process.argv[2] ?? 'docs/images/console');
/** The instant every page treats as "now", so the pictures do not change from run to run. */
const NOW = '2026-12-02T15:30:00Z';

async function main(): Promise<void> {
  const missing = chromiumMissing();
  if (missing !== null) throw new Error(`chromium is needed for the screenshots: ${missing}`);
  mkdirSync(out, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'ucp-console-shots-'));
  const store = await SqliteLocationStore.open(join(dir, 'demo.db'));
  try {
    await importFiles(store, ['data/demo.ndjson']);
    await applyInventoryFile(store, 'data/demo-inventory.csv');
    const running = await startConsole({ store, port: 0, now: () => parseInstant(NOW) });
    const browser = await launchChromium(dir, { width: 1280, height: 860 });
    try {
      const page = await browser.newPage();
      const shot = async (name: string): Promise<void> => {
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: join(out, `${name}.png`) });
        process.stdout.write(`wrote ${join(out, `${name}.png`)}\n`);
      };
      const go = async (hash: string, ready: string): Promise<void> => {
        await page.goto(`${running.url}#/${hash}`);
        await page.waitForSelector(ready);
      };

      await go('overview', '[data-testid=count-public]');
      await shot('overview');

      await go('map', 'svg .cluster');
      // Western Europe, close enough to see delivery radii and coverage areas (with the keyboard, as a user can).
      await page.focus('svg[aria-roledescription=map]');
      for (const key of ['+', '+', '+', ...Array<string>(10).fill('ArrowUp'), 'ArrowRight']) await page.keyboard.press(key);
      // Then over London and closer, where the delivery radii are drawn large enough to see.
      for (const key of ['ArrowLeft', 'ArrowLeft', 'ArrowUp', 'ArrowUp', '+', '+', '+']) await page.keyboard.press(key);
      // A point's panel: address, today's hours, amenities.
      await page.locator('svg .pt').first().click();
      await page.waitForSelector('[data-testid=point-panel]');
      await shot('map');

      await go('playground', 'form button[type=submit]');
      await page.fill('#q', 'grocery');
      await page.fill('#clat', '40.7128');
      await page.fill('#clon', '-74.006');
      await page.fill('#max', '25000');
      await page.selectOption('#ozone', 'America/New_York');
      await page.fill('#olocal', '2026-12-02T20:30');
      await page.waitForSelector('text=Sent as');
      await page.fill('#size', '5');
      await page.click('form button[type=submit]');
      await page.waitForSelector('[data-testid=results] li');
      await page.setViewportSize({ width: 1280, height: 1500 });
      await shot('playground');
      await page.setViewportSize({ width: 1280, height: 860 });

      await page.click('a[href="#/why"]');
      await page.fill('#why-id', 'loc_valley_grocers');
      await page.click('form button:has-text("Explain")');
      await page.waitForSelector('[data-testid=verdicts]');
      await shot('why');

      await go('hours?id=loc_valley_grocers', 'table.week');
      await shot('hours');

      await go('import', '#import-file');
      const bad =
        '{"id":"loc_a","name":"A","geo":{"latitude":51.5,"longitude":-0.12}}\n{"id":"loc_b","name":"B","timezone":"Europe/London","hours":[{"day":"monday","opens":"9am","closes":"17:00"}]}\n';
      await page.setInputFiles('#import-file', { name: 'new-stores.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(bad) });
      await page.waitForSelector('[data-testid=import-issues]');
      await shot('import');

      // An OpenStreetMap export: read as plain GeoJSON it fails with a hint; as osm it imports with warnings.
      await page.setInputFiles('#import-file', 'examples/osm/stores.geojson');
      await page.waitForSelector('[data-testid=import-hints]');
      await shot('import-osm-as-geojson');
      await page.selectOption('#import-format', 'osm');
      await page.waitForSelector('button:has-text("Replace the dataset")');
      await shot('import-osm');
      await page.click('button:has-text("Replace the dataset")');
      await page.waitForSelector('[data-testid=import-done]');

      await go('overview', '[data-testid=last-import]');
      await page.setViewportSize({ width: 1280, height: 1100 });
      await shot('overview-osm');
      await page.setViewportSize({ width: 390, height: 844 });
      await go('hours?id=osm-node-4004', '[data-testid=hours-now]');
      await shot('hours-unknown-phone');
      await go('hours?id=osm-node-1001', '[data-testid=now-marker]');
      await shot('hours-phone');
    } finally {
      await browser.close();
      await running.close();
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
