/**
 * Small, reusable checks for record fields. Each returns a message (why the value is wrong and
 * what to write instead) or `null` when the value is acceptable. Messages do not repeat the
 * field name: every issue carries its field separately.
 */
import { editDistance } from '../protocol/edit-distance.js';

// C0/C1 control characters: invisible in most tools, so they make ids that look equal differ.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `${typeof value} (${value})`;
  return typeof value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Identifiers (ids, aliases) are matched byte for byte in lookup, so invisible differences are
 * rejected rather than silently kept.
 */
export function identifierProblem(value: unknown): string | null {
  if (typeof value !== 'string') return `must be a string, got ${describeType(value)}`;
  if (value.length === 0) return 'must not be empty';
  if (value.trim() !== value) return `${JSON.stringify(value)} has leading or trailing whitespace; identifiers are matched exactly`;
  if (CONTROL.test(value)) return `${JSON.stringify(value)} contains a control character`;
  return null;
}

/** A string identifierProblem has nothing against. */
export function isIdentifier(value: unknown): value is string {
  return identifierProblem(value) === null;
}

export function nonEmptyStringProblem(value: unknown): string | null {
  if (typeof value !== 'string') return `must be a string, got ${describeType(value)}`;
  if (value.trim().length === 0) return 'must not be empty (omit the field when there is no value)';
  return null;
}

/** `unknown field "hoursx"; did you mean "hours"?` or a list of what is allowed. */
export function unknownFieldMessage(key: string, known: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = key.toLowerCase();
  for (const k of known) {
    // Abbreviations ("lat", "tz"…) are far in edit distance but obvious as prefixes.
    const d = lower.length >= 3 && (k.startsWith(lower) || lower.startsWith(k)) ? 1 : editDistance(lower, k);
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  const hint =
    best !== undefined && bestDistance <= Math.max(2, Math.floor(key.length / 3))
      ? `did you mean ${JSON.stringify(best)}?`
      : `allowed fields: ${known.join(', ')}`;
  return `unknown field ${JSON.stringify(key)}; ${hint}`;
}
