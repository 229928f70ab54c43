/**
 * The timing loop. For one query kind at one size, the contenders take turns on the same
 * instances (round-robin, the starting contender rotating every round), so machine noise —
 * other tenants, GC, frequency changes — falls on all of them alike and their ratio stays
 * meaningful. Each contender runs until its time budget is spent (and it has a minimum number of
 * samples) or it reaches the sample cap. Every timed answer is compared with the engine's
 * reference answer (an answer identical to one already verified for the same instance is
 * recognised by its id signature instead of being compared again); the first mismatch marks the
 * contender failed and discards its timings.
 */
import { compareOutput } from './check.js';
import { summarize, type Summary } from './stats.js';
import type { Contender, Instance, Output, QueryDef, Reference } from './types.js';

export type CellStatus = 'ok' | 'failed' | 'skipped' | 'error';

export interface Cell {
  contender: string;
  query: string;
  size: number;
  status: CellStatus;
  /** Why skipped, what mismatched, or what threw. */
  reason?: string;
  summary?: Summary;
  /** Raw samples (ms), kept for the cpu profile/debugging but not written to the report. */
  samples: number[];
  /** The instance index of each sample (same order as `samples`), for paired ratios. */
  instances: number[];
}

export interface MeasureOptions {
  /** Time budget per contender, ms (wall time spent on its calls). */
  budgetMs: number;
  minSamples: number;
  maxSamples: number;
  /** The reference answer for instance i (computed once, lazily). */
  reference: (i: number) => Promise<Reference>;
  /** Exact filter for candidate sets (the floor). */
  exact?: (instance: Instance, candidateIds: string[]) => string[];
  onProgress?: (message: string) => void;
}

interface Lane {
  contender: Contender;
  cell: Cell;
  spentMs: number;
  active: boolean;
  /** Signature of the answer already verified per instance: an identical answer needs no re-check. */
  verified: Map<number, string>;
}

/** A cheap exact fingerprint of an answer (the ids in order; indexes for candidate sets). */
function signature(output: Output): string {
  switch (output.type) {
    case 'search':
      return `s${output.total ?? ''}|${output.ids.join(',')}`;
    case 'lookup':
      return `l${output.entries.map((e) => `${e.id}<${e.inputs.join('|')}`).join(',')}`;
    case 'candidates':
      return `c${output.indexes.join(',')}`;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Median sample per instance index of a cell (ms). */
export function perInstanceMedians(cell: Cell): Record<string, number> {
  const by = new Map<number, number[]>();
  cell.samples.forEach((ms, k) => {
    const i = cell.instances[k] as number;
    const list = by.get(i);
    if (list === undefined) by.set(i, [ms]);
    else list.push(ms);
  });
  const out: Record<string, number> = {};
  for (const [i, list] of [...by].sort(([a], [b]) => a - b)) {
    list.sort((a, b) => a - b);
    const mid = (list.length - 1) / 2;
    out[String(i)] = ((list[Math.floor(mid)] as number) + (list[Math.ceil(mid)] as number)) / 2;
  }
  return out;
}

export async function measureQuery(
  query: QueryDef,
  size: number,
  instances: readonly Instance[],
  contenders: readonly Contender[],
  options: MeasureOptions,
): Promise<Cell[]> {
  const lanes: Lane[] = contenders.map((contender) => {
    const reason = contender.unsupported(query);
    const cell: Cell = {
      contender: contender.name,
      query: query.name,
      size,
      status: reason === null ? 'ok' : 'skipped',
      samples: [],
      instances: [],
    };
    if (reason !== null) cell.reason = reason;
    return { contender, cell, spentMs: 0, active: reason === null, verified: new Map<number, string>() };
  });

  const check = async (lane: Lane, i: number, output: Output): Promise<boolean> => {
    const instance = instances[i] as Instance;
    const sig = signature(output);
    if (lane.verified.get(i) === sig) return true;
    const verdict = compareOutput(instance, output, await options.reference(i), (ids) => {
      if (options.exact === undefined) throw new Error('no exact filter configured');
      return options.exact(instance, ids);
    });
    if (verdict === null) {
      lane.verified.set(i, sig);
      return true;
    }
    lane.cell.status = 'failed';
    lane.cell.reason = `instance ${i} (${JSON.stringify(instance.request)}): ${verdict}`;
    lane.active = false;
    options.onProgress?.(`MISMATCH ${lane.contender.name} on ${query.name} @${size}: ${lane.cell.reason}`);
    return false;
  };

  const call = async (lane: Lane, i: number): Promise<{ ms: number; output: Output } | null> => {
    const started = performance.now();
    try {
      const r = lane.contender.run(instances[i] as Instance);
      const output = r instanceof Promise ? await r : r;
      return { ms: performance.now() - started, output };
    } catch (error) {
      lane.cell.status = 'error';
      lane.cell.reason = `instance ${i}: ${describe(error)}`;
      lane.active = false;
      options.onProgress?.(`ERROR ${lane.contender.name} on ${query.name} @${size}: ${lane.cell.reason}`);
      return null;
    }
  };

  // Warm-up: one untimed (but checked) call each, so lazy preparation is not timed.
  for (const lane of lanes) {
    if (!lane.active) continue;
    const r = await call(lane, 0);
    if (r !== null) await check(lane, 0, r.output);
  }

  let round = 0;
  for (;;) {
    const running = lanes.filter((l) => l.active);
    if (running.length === 0) break;
    const i = round % instances.length;
    for (let k = 0; k < running.length; k++) {
      const lane = running[(k + round) % running.length] as Lane;
      const before = performance.now();
      const r = await call(lane, i);
      if (r !== null && (await check(lane, i, r.output))) {
        lane.cell.samples.push(r.ms);
        lane.cell.instances.push(i);
      }
      lane.spentMs += performance.now() - before;
      const n = lane.cell.samples.length;
      if ((lane.spentMs >= options.budgetMs && n >= options.minSamples) || n >= options.maxSamples) lane.active = false;
    }
    round++;
  }

  return lanes.map((lane) => {
    if (lane.cell.status === 'ok') lane.cell.summary = summarize(lane.cell.samples);
    else {
      lane.cell.samples = [];
      lane.cell.instances = [];
    }
    return lane.cell;
  });
}
