/** docs/benchmarks.md shows exactly the figures of the committed bench/results/latest.json. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedBlock, renderRatioTable, replaceGenerated } from '../../bench/lib/doc-table.js';
import type { BenchResults } from '../../bench/lib/report.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('benchmark figures in the docs', () => {
  it('docs/benchmarks.md carries the table `npm run bench:docs` generates from bench/results/latest.json', () => {
    const results = JSON.parse(readFileSync(join(ROOT, 'bench/results/latest.json'), 'utf8')) as BenchResults;
    const page = readFileSync(join(ROOT, 'docs/benchmarks.md'), 'utf8');
    expect(generatedBlock(page)).toBe(renderRatioTable(results));
  });

  it('an informative ratio is never shown as met, and a missed target is shown as missed', () => {
    const table = renderRatioTable({
      generatedAt: 'now',
      mode: 'quick',
      command: 'x',
      machine: 'm',
      ratios: {
        engine_vs_naive: { value: 1000, target: 'informative', met: true, basis: 'b' },
        engine_vs_floor: { value: 3, target: '<= 2', met: false, basis: 'b' },
      },
    });
    expect(table).toContain('| `engine_vs_naive` | 1,000 | informative | – | b |');
    expect(table).toContain('| `engine_vs_floor` | 3.00 | <= 2 | **no** | b |');
    expect(replaceGenerated(replaceGenerated(readFileSync(join(ROOT, 'docs/benchmarks.md'), 'utf8'), table), table)).toContain(table);
  });
});
