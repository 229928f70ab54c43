/** The committed cast budget (scripts/casts/budget.json): reading, writing and comparing it with today's counts. */
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import ts from 'typescript';
import { isCast, shippedSources } from './count.js';

export interface Budget {
  /** Folder relative to src/ (`.` for src/ itself) → casts allowed. */
  folders: Record<string, number>;
}

export function parseBudget(text: string): Budget {
  const raw: unknown = JSON.parse(text);
  if (typeof raw !== 'object' || raw === null || !('folders' in raw)) throw new Error('expected {"folders": {…}}');
  const folders: unknown = raw.folders;
  if (typeof folders !== 'object' || folders === null) throw new Error('"folders" must be an object');
  const out: Record<string, number> = {};
  for (const [folder, n] of Object.entries(folders)) {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new Error(`"${folder}" must be a non-negative integer`);
    out[folder] = n;
  }
  return { folders: out };
}

export function renderBudget(counts: Record<string, number>): string {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const doc = {
    $comment:
      'Type assertions allowed per folder of src/ (tests and test-support/ aside). Checked by `npm run casts -- --check` in `npm run check`; rewrite with `npm run casts -- --write`.',
    total,
    folders: counts,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export interface Comparison {
  lines: string[];
  /** Folders whose count exceeds their budget (a folder missing from the budget has a budget of 0). */
  over: string[];
}

export function compareWithBudget(counts: Record<string, number>, budget: Budget): Comparison {
  const folders = [...new Set([...Object.keys(counts), ...Object.keys(budget.folders)])].sort();
  const over: string[] = [];
  const lines = folders.map((folder) => {
    const n = counts[folder] ?? 0;
    const allowed = budget.folders[folder] ?? 0;
    if (n > allowed) over.push(folder);
    const note = n > allowed ? `  OVER by ${n - allowed}` : n < allowed ? `  (${allowed - n} under: tighten with --write)` : '';
    return `${String(n).padStart(5)} / ${String(allowed).padEnd(5)} ${folder}${note}`;
  });
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const allowedTotal = Object.values(budget.folders).reduce((a, b) => a + b, 0);
  lines.push(`${String(total).padStart(5)} / ${String(allowedTotal).padEnd(5)} total`);
  return { lines, over };
}

/** Every cast under src/ (or one folder of it), for finding what to remove. */
export function listCasts(srcDir: string, folder?: string): Array<{ file: string; line: number; text: string }> {
  const out: Array<{ file: string; line: number; text: string }> = [];
  for (const file of shippedSources(srcDir)) {
    const rel = relative(srcDir, file).split(sep).join('/');
    if (folder !== undefined && !rel.startsWith(`${folder.replace(/\/$/, '')}/`)) continue;
    const source = ts.createSourceFile(
      file,
      readFileSync(file, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
      file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    const visit = (node: ts.Node): void => {
      if (isCast(node)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        out.push({ file: rel, line, text: node.getText(source).replace(/\s+/g, ' ').slice(0, 120) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}
