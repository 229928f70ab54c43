/**
 * Test helper: the JSON examples embedded in the normative seed documents (`../shared/seeds/`).
 * The seeds are rendered web pages, so examples are found by scanning for balanced `{…}` blocks
 * that parse as JSON; blocks nested inside another example are not reported separately.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SEEDS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/seeds');

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
