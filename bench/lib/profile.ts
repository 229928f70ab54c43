/**
 * `--cpu-prof`: a CPU profile of one contender answering one query kind, taken in a separate pass
 * after the timed one (profiling slows code down unevenly, so it must not touch the ratios).
 * The profile is written for Chrome DevTools and summarised as the functions with most self time.
 */
import { readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './children.js';
import type { Contender, Instance } from './types.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** The parts of a V8 `.cpuprofile` the summary reads. */
export interface CpuProfile {
  nodes: ProfileNode[];
}

/**
 * Functions with the most self time (samples where they were on top of the stack), as a share
 * of the *busy* samples: `(idle)` — the thread waiting in the event loop — is left out, so a
 * server profiled across load and quiet periods still shows where its CPU went.
 */
export function topSelfTime(profile: CpuProfile, count = 15): CpuProfileResult['top'] {
  const self = new Map<string, { fn: string; where: string; hits: number }>();
  let total = 0;
  for (const node of profile.nodes) {
    if (node.callFrame.functionName === '(idle)') continue;
    const hits = node.hitCount ?? 0;
    total += hits;
    const fn = node.callFrame.functionName === '' ? '(anonymous)' : node.callFrame.functionName;
    const at = where(node.callFrame.url, node.callFrame.lineNumber);
    const key = `${fn}@${at}`;
    const entry = self.get(key) ?? { fn, where: at, hits: 0 };
    entry.hits += hits;
    self.set(key, entry);
  }
  return [...self.values()]
    .sort((a, b) => b.hits - a.hits)
    .slice(0, count)
    .map((e) => ({ fn: e.fn, where: e.where, selfPercent: total === 0 ? 0 : (100 * e.hits) / total }));
}

/**
 * Inclusive time of our code and of the libraries it calls (frames under `src/` or
 * `node_modules/`): the share of busy samples with the function anywhere on the stack. This is
 * what answers "where does a request's time go" (e.g. search vs MCP SDK vs JSON schema checks).
 */
export function topInclusive(profile: CpuProfile, count = 15): CpuProfileResult['top'] {
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const inclusive = new Map<string, { fn: string; where: string; hits: number }>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0 || node.callFrame.functionName === '(idle)') continue;
    total += hits;
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)?.callFrame;
      if (frame === undefined) break;
      const at = where(frame.url, frame.lineNumber);
      // The tsx loader only shows up while modules load; it is not part of the work measured.
      if ((!at.startsWith('src/') && !at.startsWith('node_modules/')) || at.startsWith('node_modules/tsx/')) continue;
      const fn = frame.functionName === '' ? '(anonymous)' : frame.functionName;
      const key = `${fn}@${at}`;
      if (seen.has(key)) continue; // recursion counts once
      seen.add(key);
      const entry = inclusive.get(key) ?? { fn, where: at, hits: 0 };
      entry.hits += hits;
      inclusive.set(key, entry);
    }
  }
  return [...inclusive.values()]
    .sort((a, b) => b.hits - a.hits)
    .slice(0, count)
    .map((e) => ({ fn: e.fn, where: e.where, selfPercent: total === 0 ? 0 : (100 * e.hits) / total }));
}

export interface CpuProfileResult {
  file: string;
  top: { fn: string; where: string; selfPercent: number }[];
  /** Same shape; `selfPercent` holds the inclusive share. */
  inclusive: { fn: string; where: string; selfPercent: number }[];
}

function where(url: string, line: number): string {
  if (url === '') return '(native)';
  let path = url;
  try {
    path = url.startsWith('file:') ? fileURLToPath(url) : url;
  } catch {
    /* keep the URL */
  }
  const rel = relative(REPO_ROOT, path);
  return `${rel.startsWith('..') ? path : rel}:${line + 1}`;
}

/**
 * `node --cpu-prof --cpu-prof-dir=<dir>` writes one profile per thread, named
 * CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile (the tsx loader runs in its own thread).
 * Move the main thread's (thread id 0) to `target` and remove `dir`. False when there was none.
 */
export function keepMainThreadProfile(dir: string, target: string): boolean {
  const main = readdirSync(dir).find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f));
  if (main !== undefined) renameSync(join(dir, main), target);
  rmSync(dir, { recursive: true, force: true });
  return main !== undefined;
}

/** Profile `contender` running `instances` round-robin for `seconds`; write `file`. */
export async function profileContender(
  contender: Contender,
  instances: readonly Instance[],
  seconds: number,
  file: string,
): Promise<CpuProfileResult> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const end = performance.now() + seconds * 1000;
    for (let i = 0; performance.now() < end; i++) {
      const r = contender.run(instances[i % instances.length] as Instance);
      if (r instanceof Promise) await r;
    }
    const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
    writeFileSync(file, JSON.stringify(profile));
    return { file, top: topSelfTime(profile), inclusive: topInclusive(profile) };
  } finally {
    await session.post('Profiler.disable').catch(() => undefined);
    session.disconnect();
  }
}
