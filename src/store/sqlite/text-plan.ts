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
import { IndexVocabulary } from '../search-text.js';

export { IndexVocabulary };

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
