/**
 * Import work on worker threads, so an import uses more than one core:
 *  - pass 1 (validation) of a large NDJSON file is split into byte ranges at line starts, one
 *    worker per range; the ranges' results are replayed here in file order (pipeline.ts PassOne),
 *    so issues, their order and the dataset rules are exactly those of a sequential read;
 *  - an import's one pass (pipeline.ts validatingBatches) runs on a worker and streams the valid
 *    records here, where the store writes them: parsing and validating overlap with writing.
 *
 * Workers are started per job and always terminated when it ends (or fails, or its consumer
 * stops early). Run from TypeScript sources (tests, tsx), the worker is loaded through tsx.
 */
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, cpus } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ConfigError } from '../errors.js';
import type { LocationRecord } from '../domain/location.js';
import type { ByteRange } from './ndjson.js';
import { ndjsonRangeOutcomes, type PassOptions, type PassReport, type Plan, type RecordOutcome } from './pipeline.js';
import { deepFreeze } from '../protocol/schema-walk.js';

export type WorkerJob = { job: 'range'; file: string; range: ByteRange } | { job: 'records'; plans: Plan[]; options: PassOptions; window: number };

export type ToWorker = { type: 'credit'; n: number };

export type FromWorker =
  | { type: 'outcomes'; list: RecordOutcome[] }
  | { type: 'end'; lines: number }
  | { type: 'records'; list: LocationRecord[]; parts: unknown[] }
  | { type: 'done'; report: PassReport }
  | { type: 'failed'; message: string; name: string };

/**
 * Threads worth using now, this one included (1 = no worker threads). Workers only pay when a
 * core is idle: they add ~30-40% CPU in total (copying records and outcomes between threads, a
 * second JIT warm-up) to take work off this thread, so on a machine whose cores are all busy
 * they make the import slower. Whether a core is idle is measured over `sampleMs` (the CPU
 * counters of the whole machine) rather than read from the load average, which would still
 * count an import that just ended. Results are the same either way.
 */
export async function defaultWorkers(sampleMs = 100): Promise<number> {
  const cores = availableParallelism();
  if (cores < 2) return 1;
  const before = cpus();
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  const after = cpus();
  let idle = 0;
  let total = 0;
  after.forEach((cpu, i) => {
    const prev = before[i];
    if (prev === undefined) return;
    const t = cpu.times;
    const p = prev.times;
    idle += t.idle - p.idle;
    total += t.user + t.nice + t.sys + t.irq + t.idle - (p.user + p.nice + p.sys + p.irq + p.idle);
  });
  const idleCores = total > 0 ? (idle / total) * after.length : after.length;
  return idleCores >= 0.75 ? Math.min(4, cores) : 1;
}

/** Record batches a records worker may send ahead of the store (each ~one 64 KiB chunk). */
const RECORDS_WINDOW = 16;

/**
 * Schedule parts (hours, exception_hours) shared between records are sent once per worker, not
 * once per record: a record's member holds the part's number in the stream instead, and the
 * receiver puts the part back. Most of a record's bytes are its schedule, so this roughly halves
 * what crosses between threads, and the receiving thread gets the parts frozen and shared again
 * (so the store serialises each once, see store/record-rows.ts).
 */
export class SharedParts {
  private readonly ids = new Map<object, number>();
  private readonly table: unknown[] = [];
  private fresh: unknown[] = [];

  /** Sender: replaces shared (frozen) schedule parts of `records` by their numbers, in place. */
  encode(records: LocationRecord[]): unknown[] {
    for (const record of records) {
      const r = record as unknown as Record<string, unknown>;
      for (const key of SCHEDULE_PARTS) {
        const part = r[key];
        if (typeof part !== 'object' || part === null || !Object.isFrozen(part)) continue;
        let id = this.ids.get(part);
        if (id === undefined) {
          id = this.ids.size;
          this.ids.set(part, id);
          this.fresh.push(part);
        }
        r[key] = id;
      }
    }
    const parts = this.fresh;
    this.fresh = [];
    return parts;
  }

  /** Receiver: records the new parts (frozen), then puts every part back into `records`. */
  decode(records: LocationRecord[], parts: readonly unknown[]): LocationRecord[] {
    for (const p of parts) this.table.push(deepFreeze(p));
    for (const record of records) {
      const r = record as unknown as Record<string, unknown>;
      for (const key of SCHEDULE_PARTS) {
        const id = r[key];
        if (typeof id === 'number') r[key] = this.table[id];
      }
    }
    return records;
  }
}

const SCHEDULE_PARTS = ['hours', 'exception_hours'] as const;

function startWorker(job: WorkerJob): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./import-worker.js', import.meta.url), { workerData: job });
  // Running from TypeScript sources (tests, tsx): register tsx's loader in the worker first.
  // tsx is a dev dependency; built code never takes this branch.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
  const entry = new URL('./import-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { eval: true, workerData: job });
}

/** Messages of one worker, awaited one at a time; a crash or early exit arrives as 'failed'. */
class Inbox {
  private readonly queue: FromWorker[] = [];
  private waiting: ((m: FromWorker) => void) | null = null;
  private finished = false;

  constructor(readonly worker: Worker) {
    worker.on('message', (m: FromWorker) => this.put(m));
    worker.on('error', (e: Error) => this.put({ type: 'failed', message: e.message, name: e.name }));
    worker.on('exit', (code) => {
      if (!this.finished) this.put({ type: 'failed', message: `import worker stopped unexpectedly (exit code ${code})`, name: 'Error' });
    });
  }

  private put(m: FromWorker): void {
    if (this.finished) return;
    if (m.type === 'end' || m.type === 'done' || m.type === 'failed') this.finished = true;
    const w = this.waiting;
    if (w !== null) {
      this.waiting = null;
      w(m);
    } else {
      this.queue.push(m);
    }
  }

  next(): Promise<FromWorker> {
    const m = this.queue.shift();
    if (m !== undefined) return Promise.resolve(m);
    return new Promise((resolve) => (this.waiting = resolve));
  }
}

function failure(m: { message: string; name: string }): Error {
  return m.name === 'ConfigError' ? new ConfigError(m.message) : new Error(`import worker failed: ${m.message}`);
}

/**
 * Up to `parts` ranges covering [0, size) of `file`, each starting at a line start (right after
 * a "\n" byte, which never occurs inside a UTF-8 sequence nor splits a "\r\n").
 */
export async function lineAlignedRanges(file: string, size: number, parts: number): Promise<ByteRange[]> {
  const handle = await open(file, 'r');
  try {
    const starts = [0];
    const buf = Buffer.alloc(1 << 16);
    for (let k = 1; k < parts; k++) {
      let p = Math.max(Math.floor((size * k) / parts), starts[starts.length - 1] ?? 0);
      let boundary = size;
      while (p < size) {
        const { bytesRead } = await handle.read(buf, 0, buf.length, p);
        if (bytesRead === 0) break;
        const lf = buf.subarray(0, bytesRead).indexOf(0x0a);
        if (lf !== -1) {
          boundary = p + lf + 1;
          break;
        }
        p += bytesRead;
      }
      if (boundary >= size) break;
      if (boundary > (starts[starts.length - 1] ?? 0)) starts.push(boundary);
    }
    return starts.map((start, i) => ({ start, end: starts[i + 1] ?? size }));
  } finally {
    await handle.close();
  }
}

/**
 * Pass 1 of one NDJSON file on `threads` threads (this one included): each range's outcomes, in
 * file order, with the number of lines before the range (outcomes' lines are relative to it).
 * This thread validates the first range itself (no copying between threads for it) and replays
 * the others' results once it is done; meanwhile the workers' results queue up.
 */
export async function* parallelNdjsonOutcomes(file: string, size: number, threads: number): AsyncGenerator<{ lineOffset: number; list: RecordOutcome[] }> {
  const ranges = await lineAlignedRanges(file, size, threads);
  const [first, ...rest] = ranges;
  const inboxes = rest.map((range) => new Inbox(startWorker({ job: 'range', file, range })));
  try {
    let lineOffset = 0;
    if (first !== undefined) {
      let lines = 0;
      for await (const list of ndjsonRangeOutcomes(file, first, (n) => (lines = n))) yield { lineOffset, list };
      lineOffset += lines;
    }
    for (const inbox of inboxes) {
      for (;;) {
        const m = await inbox.next();
        if (m.type === 'outcomes') yield { lineOffset, list: m.list };
        else if (m.type === 'end') {
          lineOffset += m.lines;
          break;
        } else if (m.type === 'failed') throw failure(m);
        else throw new Error(`import worker sent an unexpected ${m.type} message`);
      }
    }
  } finally {
    await Promise.all(inboxes.map((i) => i.worker.terminate()));
  }
}

/**
 * pipeline.ts validatingBatches on a worker thread: the valid records of `plans` in batches,
 * parsed and validated there while the caller writes; `onEnd` receives the pass's report before
 * the stream ends.
 */
export async function* recordsFromWorker(plans: readonly Plan[], options: PassOptions, onEnd: (report: PassReport) => void): AsyncGenerator<LocationRecord[]> {
  const worker = startWorker({ job: 'records', plans: [...plans], options, window: RECORDS_WINDOW });
  const inbox = new Inbox(worker);
  const parts = new SharedParts();
  try {
    for (;;) {
      const m = await inbox.next();
      if (m.type === 'records') {
        worker.postMessage({ type: 'credit', n: 1 } satisfies ToWorker);
        yield parts.decode(m.list, m.parts);
      } else if (m.type === 'done') {
        onEnd(m.report);
        return;
      } else if (m.type === 'failed') throw failure(m);
      else throw new Error(`import worker sent an unexpected ${m.type} message`);
    }
  } finally {
    await worker.terminate();
  }
}
