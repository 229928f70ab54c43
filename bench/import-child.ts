/**
 * Child process: import an NDJSON dataset into a fresh SQLite store with our real import
 * pipeline (`importFiles`: validate everything, then stream into `replaceAll`), and report the
 * rate and this process's peak RSS as one JSON line on stdout. A separate process so the peak
 * RSS is the import's own, not the harness's.
 *
 *   node --import tsx bench/import-child.ts <dataset.ndjson> <store.db>
 */
import { rmSync } from 'node:fs';
import { importFiles } from '../src/data/import.js';
import { SqliteLocationStore } from '../src/store/sqlite/index.js';

export interface ImportChildReport {
  records: number;
  publicLocations: number;
  availability: number;
  seconds: number;
  /** Validation pass (reading) and write pass (writing + indexing), seconds. */
  phases: Record<string, number>;
  locationsPerSecond: number;
  /** process.resourceUsage().maxRSS, KiB. */
  maxRssKiB: number;
  /** CPU time of this process (user + system) during the import, seconds: with `seconds`, shows how much the machine's other load slowed it. */
  cpuSeconds: number;
}

async function main(): Promise<void> {
  const [file, db] = process.argv.slice(2);
  if (file === undefined || db === undefined) {
    process.stderr.write('usage: import-child.ts <dataset.ndjson> <store.db>\n');
    process.exit(2);
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
  const store = await SqliteLocationStore.open(db);
  const phases: Record<string, number> = {};
  let phase = 'start';
  let phaseStart = performance.now();
  const started = phaseStart;
  const cpuBefore = process.cpuUsage();
  const report = await importFiles(store, [file], {
    onProgress: (p) => {
      if (p.phase === phase) return;
      const now = performance.now();
      phases[phase] = (phases[phase] ?? 0) + (now - phaseStart) / 1000;
      phase = p.phase;
      phaseStart = now;
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  phases[phase] = (phases[phase] ?? 0) + (performance.now() - phaseStart) / 1000;
  delete phases['start'];
  await store.close();
  const out: ImportChildReport = {
    records: report.records,
    publicLocations: report.publicLocations,
    availability: report.availability,
    seconds,
    phases,
    locationsPerSecond: report.records / seconds,
    maxRssKiB: process.resourceUsage().maxRSS,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
  process.stdout.write(`BENCH ${JSON.stringify(out)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`import failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
