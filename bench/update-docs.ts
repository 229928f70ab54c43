/**
 * `npm run bench:docs`: rewrite the generated figures of docs/benchmarks.md from
 * bench/results/latest.json (or the results file given as the first argument).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './lib/children.js';
import { renderRatioTable, replaceGenerated } from './lib/doc-table.js';
import type { BenchResults } from './lib/report.js';

const results = process.argv[2] ?? join(REPO_ROOT, 'bench/results/latest.json');
const page = join(REPO_ROOT, 'docs/benchmarks.md');
const table = renderRatioTable(JSON.parse(readFileSync(results, 'utf8')) as BenchResults);
writeFileSync(page, replaceGenerated(readFileSync(page, 'utf8'), table));
process.stdout.write(`docs/benchmarks.md: figures regenerated from ${results}\n`);
