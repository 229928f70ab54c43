/**
 * Text search pieces both stores and the in-memory index share, so that they index the same
 * terms, expand queries alike and weigh matches alike: how a document text becomes stemmed
 * lexemes (what SQLite's `porter unicode61 remove_diacritics 2` tokenizer produces), the column
 * weights, the weight of a typo-tolerant match, and a dataset's index vocabulary.
 */
import { compareIds } from '../domain/ranking.js';
import { expandToken, FuzzyVocabulary, normalizeText, porterStem, type VocabularyEntry } from '../domain/text.js';

/** The same token shape as `domain/text.ts` (letters, digits, private-use characters). */
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
/** PostgreSQL refuses lexemes of 2 KiB and more; no real word comes close. */
const MAX_LEXEME_LENGTH = 200;

/** Weights of the search columns (record-rows.ts SearchText order): a name hit matters most, then curated keywords, then where the Location is, then amenity text. */
export const COLUMN_WEIGHTS = [10, 5, 3, 2, 1, 2] as const;
/** Fuzzy (typo-tolerant) matches count this much of an exact match. */
export const FUZZY_WEIGHT = 0.5;

/** Stemmed lexemes of a document text, in order (duplicates kept: they count as frequency). */
export function documentLexemes(text: string): string[] {
  const out: string[] = [];
  for (const m of normalizeText(text).matchAll(TOKEN)) out.push(porterStem(m[0]).slice(0, MAX_LEXEME_LENGTH));
  return out;
}

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
