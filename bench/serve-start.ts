/**
 * `serve` start-up with and without the store's index file (#30), outside the full bench: one
 * dataset size, the SQLite store imported by the bench's own import child, then the e2e MCP server
 * child started twice — once with no index file (it builds the index from the store, and writes
 * the file), once with it (it loads) — each stopped as soon as it listens. Prints one JSON line.
 *
 *   node --import tsx bench/serve-start.ts [size=100000] [cache-dir]
 *
 * Ready time is from spawn to the listening line (process start, module loading included); peak
 * RSS is getrusage's maxrss of the server process. On a shared machine both move with its load.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexFilePathFor } from '../src/store/memory-index/index.js';
import { startChild, stopChild } from './lib/children.js';
import { ensureDataset } from './lib/dataset.js';

async function serveOnce(db: string): Promise<{ readySeconds: number; maxRssMiB: number | null }> {
  const spawned = performance.now();
  const child = startChild('bench/e2e-server.ts', ['mcp', db]);
  const hello = await child.next();
  if (typeof hello['url'] !== 'string') throw new Error(`the server did not report its URL: ${JSON.stringify(hello)}`);
  const readySeconds = (performance.now() - spawned) / 1000;
  const bye = child.next().catch((): Record<string, unknown> => ({}));
  await stopChild(child.process, 30_000);
  const rss = (await bye)['maxRssKiB'];
  return { readySeconds, maxRssMiB: typeof rss === 'number' ? rss / 1024 : null };
}

async function main(): Promise<void> {
  const size = Number(process.argv[2] ?? 100_000);
  const cacheDir = process.argv[3] ?? process.env['UCP_BENCH_CACHE'] ?? join(tmpdir(), 'ucp-location-bench');
  const dataset = await ensureDataset(cacheDir, 'ucp-bench-1', size);
  const db = join(cacheDir, `serve-start-${size}.db`);
  if (!existsSync(db)) {
    const importer = startChild('bench/import-child.ts', [dataset.path, db], ['--max-old-space-size=4096']);
    await importer.next();
    await importer.exited;
  }
  rmSync(indexFilePathFor(db), { force: true });
  const load = loadavg()[0];
  const built = await serveOnce(db);
  const fileBytes = statSync(indexFilePathFor(db)).size;
  const loaded = await serveOnce(db);
  process.stdout.write(
    `${JSON.stringify({ size, loadAverage1m: load, indexFileMiB: fileBytes / 2 ** 20, withoutFile: built, withFile: loaded })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
