/**
 * NDJSON (JSON Lines) reading: one JSON value per line, streamed with readline so a file of a
 * million records is never held in memory. Blank lines are skipped; a broken line is reported
 * with its 1-based line and column and reading goes on, so one run lists every broken line.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { FieldIssue } from './issues.js';

export type NdjsonEntry =
  | { line: number; value: unknown }
  | { line: number; issue: FieldIssue };

/** Column (1-based) of a JSON.parse failure; V8 reports an offset ("at position 17"). */
function syntaxColumn(error: unknown, text: string): number {
  const m = /position (\d+)/.exec(error instanceof Error ? error.message : '');
  return m?.[1] !== undefined ? Number(m[1]) + 1 : text.length + 1;
}

/** Parses one line; the issue names the column and repeats V8's reason. */
export function parseJsonLine(text: string): { value: unknown } | { issue: FieldIssue } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    const column = syntaxColumn(error, text);
    const reason = error instanceof Error ? error.message.replace(/\s*\(line \d+ column \d+\)$/, '') : String(error);
    const near = text.slice(Math.max(0, column - 11), column + 9);
    return { issue: { field: '', message: `invalid JSON at column ${column} (near ${JSON.stringify(near)}): ${reason}` } };
  }
}

export async function* readNdjson(path: string): AsyncGenerator<NdjsonEntry> {
  const input = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const rawText of lines) {
      line += 1;
      // A UTF-8 byte-order mark is legal at the start of a file but is not JSON.
      const text = line === 1 && rawText.startsWith('\uFEFF') ? rawText.slice(1) : rawText;
      if (text.trim() === '') continue;
      const parsed = parseJsonLine(text);
      yield 'value' in parsed ? { line, value: parsed.value } : { line, issue: parsed.issue };
    }
  } finally {
    lines.close();
    input.destroy();
  }
}
