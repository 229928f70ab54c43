/**
 * Equality of a contender's answer with the engine's reference answer. A contender's time only
 * counts when its answer is right: the harness checks every answer it times with these functions
 * and marks the contender failed (for that query kind and size) on the first mismatch.
 */
import type { Instance, Output, Reference } from './types.js';

/** Null when equal; otherwise a short description of the first difference. */
export type Verdict = string | null;

function firstDifference(got: readonly string[], want: readonly string[]): string {
  const n = Math.max(got.length, want.length);
  for (let i = 0; i < n; i++) {
    if (got[i] !== want[i]) return `at position ${i}: got ${got[i] ?? '(nothing)'}, expected ${want[i] ?? '(nothing)'}`;
  }
  return 'equal';
}

/** Page size the instance asks for (default 10). */
function pageSize(instance: Instance): number {
  return instance.op === 'search' ? (instance.request.pagination?.limit ?? 10) : 0;
}

/**
 * Compare `output` with `reference`.
 * - search: ids must be the reference's first min(pages × page size, |reference|) ids, in order;
 *   a reported total must equal |reference|.
 * - lookup: the same Locations in the same order, each with the same inputs in the same order.
 * - candidates: a superset of the reference ids, and `exact(candidates)` (the exact predicates
 *   applied to them, ranked) must equal the reference.
 */
export function compareOutput(
  instance: Instance,
  output: Output,
  reference: Reference,
  exact?: (candidateIds: string[]) => string[],
): Verdict {
  if (output.type === 'lookup') {
    if (reference.op !== 'lookup') return 'lookup answer for a search';
    const got = output.entries.map((e) => `${e.id}<-${e.inputs.join('|')}`);
    const want = reference.entries.map((e) => `${e.id}<-${e.inputs.join('|')}`);
    return got.length === want.length && got.every((g, i) => g === want[i]) ? null : `lookup differs ${firstDifference(got, want)}`;
  }
  if (reference.op !== 'search') return 'search answer for a lookup';
  if (output.type === 'search') {
    const pages = instance.op === 'search' ? instance.pages : 1;
    const want = reference.ids.slice(0, pages * pageSize(instance));
    if (output.ids.length !== want.length || output.ids.some((id, i) => id !== want[i])) {
      return `ids differ ${firstDifference(output.ids, want)} (${output.ids.length} returned, ${want.length} expected)`;
    }
    if (output.total !== undefined && output.total !== reference.ids.length) {
      return `total_count ${output.total}, expected ${reference.ids.length}`;
    }
    return null;
  }
  // Candidate set (floor).
  const candidates = output.indexes.map((i) => output.ids[i] as string);
  const set = new Set(candidates);
  const missing = reference.ids.filter((id) => !set.has(id));
  if (missing.length > 0) return `candidate set misses ${missing.length} result(s), e.g. ${missing[0]}`;
  if (exact === undefined) return 'no exact filter to check the candidate set with';
  const filtered = exact(candidates);
  if (filtered.length !== reference.ids.length || filtered.some((id, i) => id !== reference.ids[i])) {
    return `exact filter of the candidates differs ${firstDifference(filtered, reference.ids)}`;
  }
  return null;
}
