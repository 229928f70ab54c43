/**
 * Child process: import an NDJSON dataset into a fresh SQLite store with our real import
 * pipeline (`importFiles`: one pass that validates each record while `replaceAll` writes), and report the
 * rate and this process's peak RSS as one JSON line on stdout. A separate process so the peak
 * RSS is the import's own, not the harness's.
 *
 *   node --import tsx bench/import-child.ts <dataset> <store.db> [--workers <n>] [--format <format>]
 *
 * `--workers` pins the threads (default: importFiles decides from the machine's idle cores);
 * `--format` reads another input format (the per-format rates of docs/benchmarks.md).
 */
import { parseArgs } from 'node:util';
import { rmSync } from 'node:fs';
import { importFiles } from '../src/data/import.js';
import { SqliteLocationStore } from '../src/store/sqlite/index.js';

export interface ImportChildReport {
  records: number;
  publicLocations: number;
  availability: number;
  seconds: number;
  /** Seconds per phase the store reports: writing (validation runs alongside), indexing. */
  phases: Record<string, number>;
  locationsPerSecond: number;
  /** process.resourceUsage().maxRSS, KiB. */
  maxRssKiB: number;
  /** CPU time of this process (user + system) during the import, seconds: with `seconds`, shows how much the machine's other load slowed it. */
  cpuSeconds: number;
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { workers: { type: 'string' }, format: { type: 'string' } },
  });
  const [file, db] = positionals;
  if (file === undefined || db === undefined) {
    process.stderr.write('usage: import-child.ts <dataset> <store.db> [--workers <n>] [--format <format>]\n');
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
    ...(values.workers !== undefined ? { workers: Number(values.workers) } : {}),
    ...(values.format !== undefined ? { format: values.format } : {}),
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
