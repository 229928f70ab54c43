/**
 * npm run relevance [-- [--json] [q01 …]]
 *
 * Scores the search ranking against the judged query set bench/relevance/queries.json: loads the
 * demo dataset (data/demo.ndjson) into a throw-away SQLite store, runs every query through the
 * real LocationService in-process, and prints nDCG@5 and the reciprocal rank of the first result
 * graded ≥ 2 per query, with their means. docs/ranking.md reports the figures (a test checks they
 * are this script's output). Exit status 0, or 2 on a usage error.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { importFiles } from '../src/data/import.js';
import type { SearchRequest } from '../src/domain/requests.js';
import { LocationService } from '../src/service.js';
import { SqliteLocationStore } from '../src/store/sqlite/index.js';
import { ndcgAt, reciprocalRank } from './relevance/metrics.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const QUERIES = `${ROOT}bench/relevance/queries.json`;
const DATASET = `${ROOT}data/demo.ndjson`;
/** Results scored per query, and the grade the reciprocal rank looks for. */
const K = 5;
const RR_MIN_GRADE = 2;

interface JudgedQuery {
  id: string;
  need: string;
  request: SearchRequest;
  judgments: { id: string; grade: number; reason: string }[];
}

export interface QueryScore {
  id: string;
  need: string;
  ndcg5: number;
  rr: number;
  top5: string[];
}

export interface RelevanceReport {
  queries: QueryScore[];
  meanNdcg5: number;
  mrr: number;
}

export function loadQueries(): JudgedQuery[] {
  return (JSON.parse(readFileSync(QUERIES, 'utf8')) as { queries: JudgedQuery[] }).queries;
}

/** Runs the judged queries (all, or those whose id is in `only`) against the demo data. */
export async function evaluateRelevance(only: readonly string[] = []): Promise<RelevanceReport> {
  const queries = loadQueries().filter((q) => only.length === 0 || only.includes(q.id));
  const store = await SqliteLocationStore.open(':memory:');
  try {
    await importFiles(store, [DATASET]);
    const service = new LocationService(store, { cursorSecret: 'relevance-script-cursor-secret' });
    const scores: QueryScore[] = [];
    for (const q of queries) {
      const result = await service.search({ ...q.request, pagination: { limit: K } });
      const ranked = result.locations.map((l) => l.id);
      const judgments = new Map(q.judgments.map((j) => [j.id, j.grade]));
      scores.push({
        id: q.id,
        need: q.need,
        ndcg5: ndcgAt(K, ranked, judgments),
        rr: reciprocalRank(ranked, judgments, RR_MIN_GRADE),
        top5: ranked,
      });
    }
    const mean = (xs: number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
    return { queries: scores, meanNdcg5: mean(scores.map((s) => s.ndcg5)), mrr: mean(scores.map((s) => s.rr)) };
  } finally {
    await store.close();
  }
}

/** Figures as the report and docs/ranking.md print them. */
export function fixed(x: number): string {
  return x.toFixed(3);
}

export function formatReport(report: RelevanceReport): string {
  const lines = [`relevance: ${report.queries.length} judged queries over data/demo.ndjson, first ${K} results each`, ''];
  lines.push('query  nDCG@5  RR     top 5');
  for (const q of report.queries) {
    lines.push(`${q.id.padEnd(6)} ${fixed(q.ndcg5)}   ${fixed(q.rr)}  ${q.top5.join(' ')}`);
  }
  lines.push('', `mean nDCG@5 ${fixed(report.meanNdcg5)}, MRR (first result graded ≥ ${RR_MIN_GRADE}) ${fixed(report.mrr)}`);
  return lines.join('\n');
}

const USAGE = `usage: npm run relevance -- [--json] [QUERY-ID …]
  --json       the report as JSON: {queries: [{id, need, ndcg5, rr, top5}], meanNdcg5, mrr}
  QUERY-ID …   only these queries of bench/relevance/queries.json (e.g. q01 q17)`;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help === true) {
    console.log(USAGE);
    return 0;
  }
  const known = new Set(loadQueries().map((q) => q.id));
  const unknown = parsed.positionals.filter((p) => !known.has(p));
  if (unknown.length > 0) {
    console.error(`unknown query id ${unknown.join(', ')} (the ids are q01 … q${String(known.size).padStart(2, '0')})\n${USAGE}`);
    return 2;
  }
  const report = await evaluateRelevance(parsed.positionals);
  console.log(parsed.values.json === true ? JSON.stringify(report, null, 2) : formatReport(report));
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main(process.argv.slice(2));
}
