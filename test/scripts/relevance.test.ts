/**
 * `npm run relevance`: the judged query set is well formed, the metrics compute what they say, and
 * docs/ranking.md reports exactly what the script measures now (its "after" column), so the page
 * cannot drift from the engine.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluateRelevance, fixed, loadQueries, type RelevanceReport } from '../../scripts/relevance.js';
import { ndcgAt, reciprocalRank } from '../../scripts/relevance/metrics.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('relevance metrics', () => {
  const judged = new Map([
    ['a', 3],
    ['b', 2],
    ['c', 1],
  ]);

  it('nDCG@k is 1 for the ideal order and less for any other', () => {
    expect(ndcgAt(5, ['a', 'b', 'c'], judged)).toBeCloseTo(1, 12);
    expect(ndcgAt(5, ['c', 'b', 'a'], judged)).toBeLessThan(1);
    expect(ndcgAt(5, ['x', 'y'], judged)).toBe(0);
    // (2^2-1)/log2(2) / ((2^3-1)/1 + (2^2-1)/log2(3) + (2^1-1)/2)
    expect(ndcgAt(5, ['b'], judged)).toBeCloseTo(3 / (7 + 3 / Math.log2(3) + 0.5), 12);
    expect(ndcgAt(5, [], new Map())).toBe(1);
  });

  it('reciprocal rank of the first result graded at least the minimum', () => {
    expect(reciprocalRank(['c', 'x', 'b'], judged, 2)).toBeCloseTo(1 / 3, 12);
    expect(reciprocalRank(['c'], judged, 2)).toBe(0);
  });
});

describe('bench/relevance/queries.json', () => {
  const demo = new Map(
    readFileSync(`${ROOT}data/demo.ndjson`, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { id: string; visibility?: string })
      .map((r) => [r.id, r]),
  );

  it('holds ≥ 30 judged queries with context and language variants; every judgment names a public demo Location, a grade 1–3 and a reason', () => {
    const queries = loadQueries();
    expect(queries.length).toBeGreaterThanOrEqual(30);
    expect(new Set(queries.map((q) => q.id)).size).toBe(queries.length);
    expect(queries.filter((q) => q.request.context !== undefined).length).toBeGreaterThanOrEqual(30);
    expect(queries.filter((q) => typeof q.request.context?.['language'] === 'string').length).toBeGreaterThanOrEqual(5);
    for (const q of queries) {
      expect(q.judgments.length, q.id).toBeGreaterThan(0);
      for (const j of q.judgments) {
        expect(demo.get(j.id)?.visibility, `${q.id} ${j.id}`).not.toBe('private');
        expect(demo.has(j.id), `${q.id} ${j.id}`).toBe(true);
        expect([1, 2, 3]).toContain(j.grade);
        expect(j.reason.length).toBeGreaterThan(10);
      }
    }
  });
});

describe('npm run relevance', { timeout: 120_000 }, () => {
  let report: RelevanceReport;

  it('docs/ranking.md reports what the script measures now (mean, MRR and every query’s "after")', async () => {
    report = await evaluateRelevance();
    const doc = readFileSync(`${ROOT}docs/ranking.md`, 'utf8');
    const metric = (name: string): string[] => {
      const row = doc.split('\n').find((l) => l.startsWith(`| ${name}`));
      return (row ?? '').split('|').map((c) => c.trim());
    };
    expect(metric('mean nDCG@5')[3]).toBe(fixed(report.meanNdcg5));
    expect(metric('MRR')[3]).toBe(fixed(report.mrr));
    for (const q of report.queries) {
      const cells = metric(q.id);
      expect(cells[cells.length - 2], q.id).toBe(fixed(q.ndcg5));
    }
  });

  it('runs as a command: --json for one query, exit 2 with the usage for an unknown id', async () => {
    const run = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
      new Promise((resolve) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', 'scripts/relevance.ts', ...args],
          { cwd: ROOT, timeout: 60_000 },
          (error, stdout, stderr) => {
            resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
          },
        );
      });
    const one = await run(['--json', 'q01']);
    expect(one.code).toBe(0);
    const parsed = JSON.parse(one.stdout) as RelevanceReport;
    expect(parsed.queries.map((q) => q.id)).toEqual(['q01']);
    expect(parsed.queries[0]?.ndcg5).toBe(report.queries[0]?.ndcg5);
    const bad = await run(['q999']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('usage: npm run relevance');
  });
});
