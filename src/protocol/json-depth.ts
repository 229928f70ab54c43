/**
 * Nesting depth of JSON text, measured without parsing it and without recursion.
 *
 * Everything that walks parsed JSON recursively (schema validators, canonical serialisers, log
 * redaction, the SDK's zod parsing) overflows the stack somewhere between 2,000 and 10,000 levels,
 * and a 200 KB body can nest 100,000 deep. Rather than trust each of those walkers, input is
 * refused at the door when it nests deeper than any legitimate UCP document needs; after that
 * check, every recursive helper downstream sees at most `limit` levels.
 *
 * The scan works on the raw bytes: in UTF-8 the bytes of `"`, `\`, `[`, `{`, `]`, `}` never occur
 * inside a multi-byte character, so a byte loop that skips string contents counts brackets
 * exactly. It does not validate the JSON (JSON.parse does that next); unbalanced closers only make
 * the count smaller (such text fails JSON.parse anyway). Cost: one pass over the bytes, measured
 * (Node 20, 2 shared cores) at ≈ 6 µs for a 0.9 KB body and ≈ 150 µs for 25 KB, about a fifth of
 * Buffer#toString + JSON.parse on the same bodies (≈ 30 µs and ≈ 730 µs).
 */

/** Deepest nesting accepted in request bodies and fetched profiles. UCP documents need under 10. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * True when `bytes` (UTF-8 JSON text) opens more than `limit` arrays/objects inside one another
 * at any point. Stops at the first level over the limit.
 */
export function exceedsJsonDepth(bytes: Uint8Array, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH)
        i++; // the escaped byte cannot end the string
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}
