/**
 * `ucp-location serve --workers 2 --store postgres://… --redis redis://…` as a real process tree
 * (node:cluster): both workers serve one port, cursors from any worker page on any other (the
 * primary hands them one cursor secret), a rate limit is shared through Redis, and SIGTERM
 * stops the whole fleet gracefully with exit status 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliNodeArgs } from '../client/support/cli.js';
import { untilOutput } from '../support/child-output.js';
import { postJson, rawRequest } from '../../src/transport/test-support/raw-http.js';
import { FIXTURE } from '../e2e/support/store.js';
import { startPlatforms, type Platforms } from '../e2e/support/platform.js';
import { buildPostgresStoreIn } from './support/e2e-store.js';
import { createTestDatabase, withSchema, type TestDatabase } from './support/pg.js';
import { freePort, ThrowawayRedis } from './support/redis.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describeWith, type ServiceName } from '../support/services.js';
import { allowForChildProcesses } from '../support/child-process-budget.js';

allowForChildProcesses();

const NEEDS: ServiceName[] = ['postgis', 'redis'];

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ITEM_BUDGET = 5;

let db: TestDatabase;
let redis: ThrowawayRedis;
let platforms: Platforms;
let child: ChildProcess;
let port: number;
let output = '';
let scratch: string;

beforeAll(async () => {
  db = await createTestDatabase('ucp_workers');
  const url = withSchema(db.url, 'workers');
  await buildPostgresStoreIn(url, FIXTURE);
  redis = await ThrowawayRedis.start();
  platforms = await startPlatforms();
  port = await freePort();
  scratch = mkdtempSync(join(tmpdir(), 'ucp-workers-'));
  const config = join(scratch, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({ limits: { defaultPageSize: 1 }, rateLimits: { itemSearch: { limit: ITEM_BUDGET, windowSeconds: 600 } } }),
  );
  child = spawn(
    process.execPath,
    [
      ...cliNodeArgs(),
      'serve',
      '--port',
      String(port),
      '--workers',
      '2',
      '--store',
      url,
      '--redis',
      redis.url,
      '--config',
      config,
      '--allow-loopback-profiles',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  // Both workers listening (each logs its own line).
  await untilOutput(child, () => (output.match(/business server listening/g) ?? []).length >= 2, 'both workers listened');
});

afterAll(async () => {
  if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
  await platforms?.close();
  await redis?.stop();
  await db?.drop();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

const agent = (): Record<string, string> => ({ 'ucp-agent': `profile="${platforms.good}"`, connection: 'close' });

describeWith(NEEDS, 'serve --workers 2 (node:cluster) on PostgreSQL + Redis', () => {
  it('pages through every result with cursors while requests spread over both workers (R-S9)', async () => {
    expect((await rawRequest(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    // A new connection per request: the cluster hands connections to workers in turn.
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i++) {
      const res = await postJson(
        `http://127.0.0.1:${port}/ucp/locations/search`,
        { query: 'grocery store', pagination: cursor === undefined ? { limit: 1 } : { limit: 1, cursor } },
        agent(),
      );
      expect(res.status, res.text).toBe(200);
      const body = res.json as { locations: { id: string }[]; pagination: { has_next_page: boolean; cursor?: string } };
      seen.push(...body.locations.map((l) => l.id));
      if (!body.pagination.has_next_page) break;
      cursor = body.pagination.cursor;
    }
    expect(seen.length).toBeGreaterThan(2);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('shares the item-search budget between the workers through Redis (R-P2)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < ITEM_BUDGET + 2; i++) {
      statuses.push(
        (await postJson(`http://127.0.0.1:${port}/ucp/locations/search`, { filters: { items: ['sku-apple-gala'] } }, agent())).status,
      );
    }
    expect(statuses.slice(0, ITEM_BUDGET).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(ITEM_BUDGET)).toEqual([429, 429]);
  });

  it('stops the whole fleet on SIGTERM with exit status 0', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // The tsx wrapper forwards the signal to the cluster primary, which stops its workers.
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect((output.match(/UCP Location business server stopped/g) ?? []).length).toBe(2);
  });
});
