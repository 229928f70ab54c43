/**
 * Turns a TextQuery into FTS5 MATCH expressions for the SQLite store.
 *
 * Each query token contributes, OR-ed together:
 *  - strict phrases: the token itself (FTS5 stems it exactly as it stemmed the documents) and,
 *    for tokens of 3+ characters, the token as a prefix ("groc" → grocer…);
 *  - fuzzy phrases: indexed terms within a small edit distance of the token or of its stem
 *    ("grcery" → "grocer"), found in the index vocabulary.
 * Strict and fuzzy matches are scored separately (bm25) and fuzzy scores count half, so an exact
 * or stemmed hit outranks a typo-tolerant one. Terms combine with OR: more matched terms rank
 * higher, and text only ever narrows the candidate set (R-S1).
 */
import { compareIds } from '../../domain/ranking.js';
import { expandToken, FuzzyVocabulary, type VocabularyEntry } from '../../domain/text.js';

/** Cached expansions per vocabulary; beyond this many distinct tokens the cache restarts. */
const EXPANSION_CACHE_LIMIT = 10_000;

/** The vocabulary of one dataset: fuzzy index plus per-term document counts for estimates. */
export class IndexVocabulary {
  private readonly fuzzy: FuzzyVocabulary;
  /** Terms in code-point order with cumulative document counts (for prefix-range sums). */
  private readonly terms: string[];
  private readonly cumulativeDocs: Float64Array;
  private readonly expansions = new Map<string, ReturnType<typeof expandToken>>();

  constructor(entries: readonly VocabularyEntry[]) {
    const sorted = [...entries].sort((a, b) => compareIds(a.term, b.term));
    this.terms = sorted.map((e) => e.term);
    this.cumulativeDocs = new Float64Array(sorted.length + 1);
    let total = 0;
    sorted.forEach((e, i) => {
      total += e.docs;
      this.cumulativeDocs[i + 1] = total;
    });
    this.fuzzy = new FuzzyVocabulary(sorted);
  }

  get size(): number {
    return this.terms.length;
  }

  /** First index whose term is >= `t` in code-point order. */
  private lowerBound(t: string): number {
    let lo = 0;
    let hi = this.terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const term = this.terms[mid];
      if (term !== undefined && compareIds(term, t) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Documents containing exactly `term` (0 when absent). */
  docsFor(term: string): number {
    const i = this.lowerBound(term);
    return this.terms[i] === term ? this.docsBetween(i, i + 1) : 0;
  }

  /** Upper bound on documents containing a term that starts with `prefix`. */
  docsWithPrefix(prefix: string): number {
    const start = this.lowerBound(prefix);
    // U+10FFFF sorts after every code point that can follow the prefix.
    const end = this.lowerBound(`${prefix}\u{10FFFF}`);
    return this.docsBetween(start, end);
  }

  /** Document counts summed over terms[start..end) (indexes from lowerBound: 0..size). */
  private docsBetween(start: number, end: number): number {
    return (this.cumulativeDocs[end] ?? 0) - (this.cumulativeDocs[start] ?? 0);
  }

  expand(token: string): ReturnType<typeof expandToken> {
    let e = this.expansions.get(token);
    if (e === undefined) {
      if (this.expansions.size >= EXPANSION_CACHE_LIMIT) this.expansions.clear();
      e = expandToken(token, this.fuzzy);
      this.expansions.set(token, e);
    }
    return e;
  }
}

export interface TextPlan {
  /** MATCH expression of exact and prefix phrases. */
  strict: string;
  /** MATCH expression of typo-tolerant variants; null when there are none. */
  fuzzy: string | null;
  /** Upper bound on matching documents (sum of document counts), to choose a query plan. */
  estimate: number;
}

/** An FTS5 string literal: double quotes, inner quotes doubled. */
function phrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** Build the MATCH expressions for normalised tokens; null when there are no tokens. */
export function planText(tokens: readonly string[], vocabulary: IndexVocabulary): TextPlan | null {
  if (tokens.length === 0) return null;
  const strict: string[] = [];
  const fuzzy: string[] = [];
  const fuzzySeen = new Set<string>();
  let estimate = 0;
  for (const token of tokens) {
    const e = vocabulary.expand(token);
    strict.push(phrase(token));
    if (e.prefix) {
      strict.push(`${phrase(token)}*`);
      estimate += vocabulary.docsWithPrefix(e.stem);
    } else {
      estimate += vocabulary.docsFor(e.stem);
    }
    for (const v of e.fuzzy) {
      if (fuzzySeen.has(v)) continue;
      fuzzySeen.add(v);
      fuzzy.push(phrase(v));
      estimate += vocabulary.docsFor(v);
    }
  }
  return { strict: strict.join(' OR '), fuzzy: fuzzy.length > 0 ? fuzzy.join(' OR ') : null, estimate };
}
