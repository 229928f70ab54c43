/**
 * The cast budget (scripts/casts.ts): what counts as a cast, what is left out, and the comparison
 * `npm run check` fails on. The real src/ is measured too: it must be within the committed budget.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareWithBudget, parseBudget, renderBudget } from '../../scripts/casts/budget.js';
import { castsByFolder, countCasts } from '../../scripts/casts/count.js';
import { useScratchDir } from '../support/scratch.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('cast counter', () => {
  const scratch = useScratchDir('casts');

  it('counts `as T` and `<T>x`, not `as const`, from the syntax tree (not text: a string or comment saying "as T" is no cast)', () => {
    const text = [
      'const a = [1, 2] as const;',
      'const b = JSON.parse("1") as number;',
      'const c = <string>(<unknown>b);',
      '// x as Foo in a comment',
      "const d = 'y as Bar';",
      'const e = (b as unknown as { n: number }).n;',
    ].join('\n');
    expect(countCasts('x.ts', text)).toBe(5);
  });

  it('reads .tsx (where `<T>x` is JSX, so only `as` exists)', () => {
    expect(countCasts('x.tsx', 'export const v = <div>{(1 as number) + 1}</div>;')).toBe(1);
  });

  it('counts per folder, leaving out tests and test-support/', () => {
    const dir = scratch();
    mkdirSync(join(dir, 'a/test-support'), { recursive: true });
    writeFileSync(join(dir, 'top.ts'), 'export const x = 1 as number;');
    writeFileSync(join(dir, 'a/m.ts'), 'export const x = 1 as number; export const y = 2 as number;');
    writeFileSync(join(dir, 'a/m.test.ts'), 'export const x = 1 as number;');
    writeFileSync(join(dir, 'a/test-support/s.ts'), 'export const x = 1 as number;');
    expect(castsByFolder(dir)).toEqual({ '.': 1, a: 2 });
  });
});

describe('cast budget', () => {
  it('flags a folder over its budget, and a folder the budget does not name as over a budget of 0', () => {
    const budget = parseBudget(renderBudget({ a: 2, b: 1 }));
    expect(compareWithBudget({ a: 2, b: 1 }, budget).over).toEqual([]);
    expect(compareWithBudget({ a: 3, b: 0 }, budget).over).toEqual(['a']);
    expect(compareWithBudget({ a: 1, c: 1 }, budget).over).toEqual(['c']);
  });

  it('refuses a malformed budget file with a message naming the problem', () => {
    expect(() => parseBudget('{"folders": {"a": -1}}')).toThrow(/"a" must be a non-negative integer/);
    expect(() => parseBudget('[]')).toThrow(/expected \{"folders"/);
  });

  it('src/ is within the committed budget (scripts/casts/budget.json)', () => {
    const budget = parseBudget(readFileSync(join(ROOT, 'scripts/casts/budget.json'), 'utf8'));
    expect(compareWithBudget(castsByFolder(join(ROOT, 'src')), budget).over).toEqual([]);
  });
});
