/**
 * Counts type assertions in src/ from the TypeScript syntax tree: every `x as T` except `as const`,
 * and every `<T>x`. Tests (`*.test.ts`, `*.test.tsx`) and `test-support/` folders are left out:
 * the budget is about the shipped code. Counts are per folder (the file's directory relative to
 * src/, `.` for src/ itself), so a budget can name the folder that grew.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';

/** Source files of the shipped code under `dir`: .ts/.tsx, no tests, no test-support/. */
export function shippedSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : shippedSources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function isAsConst(node: ts.AsExpression): boolean {
  return ts.isTypeReferenceNode(node.type) && ts.isIdentifier(node.type.typeName) && node.type.typeName.text === 'const';
}

/** `x as T` (not `as const`) or `<T>x`. */
export function isCast(node: ts.Node): boolean {
  return (ts.isAsExpression(node) && !isAsConst(node)) || ts.isTypeAssertionExpression(node);
}

/** Type assertions in one file's text (`as const` excluded). */
export function countCasts(fileName: string, text: string): number {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  let count = 0;
  const visit = (node: ts.Node): void => {
    if (isCast(node)) count += 1;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return count;
}

/** Casts per folder of `srcDir` (folders with none are left out), keys sorted. */
export function castsByFolder(srcDir: string): Record<string, number> {
  const counts = new Map<string, number>();
  for (const file of shippedSources(srcDir)) {
    const n = countCasts(file, readFileSync(file, 'utf8'));
    if (n === 0) continue;
    const folder = relative(srcDir, dirname(file)).split(sep).join('/') || '.';
    counts.set(folder, (counts.get(folder) ?? 0) + n);
  }
  return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
