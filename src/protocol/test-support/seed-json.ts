/**
 * Test helper: the JSON examples embedded in the normative seed documents (`../shared/seeds/`).
 * The seeds are rendered web pages, so examples are found by scanning for balanced `{…}` blocks
 * that parse as JSON; blocks nested inside another example are not reported separately.
 *
 * A clone that does not sit beside `shared/` has no seeds; the examples then come from
 * `seed-examples.json`, a snapshot of exactly what this scan extracts (the wire examples only,
 * not the documents). Where the seeds are present, seed-json.test.ts holds the snapshot to them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const SEEDS = resolve(HERE, '../../../../shared/seeds');
export const SNAPSHOT = resolve(HERE, 'seed-examples.json');

/** Whether the seed documents themselves are at hand (the clone sits beside `shared/`). */
export function seedsPresent(): boolean {
  return existsSync(SEEDS);
}

export const LOCATION_MCP_SEED = '000_ab766068eeae6dd7.txt';
export const OVERVIEW_SEED = '002_736044411eb693d2.txt';

/** End index (exclusive) of the balanced object starting at `start`, string-aware; -1 if unbalanced. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return -1;
}

/** Every top-level JSON object example of a seed file, in document order. */
export function seedJsonExamples(file: string): Record<string, unknown>[] {
  if (seedsPresent()) return scanSeed(file);
  const snapshot = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as Record<string, Record<string, unknown>[]>;
  const examples = snapshot[file];
  if (examples === undefined) throw new Error(`${file}: not in ${SNAPSHOT}; regenerate it beside ../shared/seeds (see seed-json.test.ts)`);
  return examples;
}

/** The scan itself, over the seed document. */
export function scanSeed(file: string): Record<string, unknown>[] {
  const text = readFileSync(resolve(SEEDS, file), 'utf8');
  const found: Record<string, unknown>[] = [];
  let i = 0;
  while ((i = text.indexOf('{', i)) >= 0) {
    const end = objectEnd(text, i);
    if (end > 0) {
      try {
        const value: unknown = JSON.parse(text.slice(i, end));
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
          found.push(value as Record<string, unknown>);
          i = end;
          continue;
        }
      } catch {
        // not an example (prose braces, elided "…" bodies); try the next brace
      }
    }
    i++;
  }
  return found;
}
