/**
 * Full-text search on PostgreSQL with the same vocabulary as the SQLite store.
 *
 * PostgreSQL's own dictionaries (Snowball `english`, stop words, locale-dependent word splitting)
 * would index other terms than SQLite's `porter unicode61 remove_diacritics 2`, and so find other
 * Locations. Instead we tokenise and stem in JavaScript with the domain's own functions
 * (`normalizeText`, `porterStem`) and hand PostgreSQL finished lexemes: a `tsvector` literal per
 * Location (weights A name, B keywords, C locality/region, D street/amenities) and a `tsquery`
 * literal per request. PostgreSQL only stores, indexes (GIN) and ranks (`ts_rank`).
 *
 * Typo tolerance: the index vocabulary (distinct lexemes with document counts) is kept in a
 * table with a pg_trgm GIN index. A query token's near neighbours are fetched by trigram
 * similarity with a deliberately low threshold (a superset), then filtered with the domain's
 * exact bounded edit distance, so the variants equal those SQLite finds in its in-memory
 * vocabulary (same `maxEditsFor`, same ordering, same cap).
 */
import {
  boundedLevenshtein,
  MAX_FUZZY_VARIANTS,
  maxEditsFor,
  porterStem,
  type FuzzyMatch,
  type TermExpansion,
  type VocabularyEntry,
} from '../../domain/text.js';
import { documentLexemes, FUZZY_WEIGHT } from '../search-text.js';

/** PostgreSQL keeps positions up to 16383; later ones are clamped there. */
const MAX_POSITION = 16_383;

/** Weight letters in the order of `deriveRow(...).text` columns. */
export const COLUMN_WEIGHTS = ['A', 'B', 'C', 'C', 'D', 'D'] as const;
/** `ts_rank` weights, in PostgreSQL's {D, C, B, A} order: a name hit matters most. */
export const RANK_WEIGHTS = '{0.1, 0.3, 0.5, 1.0}';
export { documentLexemes, FUZZY_WEIGHT };

/** A tsvector/tsquery lexeme literal: single quotes, inner quotes doubled, backslashes escaped. */
export function quoteLexeme(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * A `tsvector` literal for the text columns of one Location (weights per `COLUMN_WEIGHTS`);
 * null when there is no word at all.
 */
export function tsvectorLiteral(columns: readonly string[]): string | null {
  const positions = new Map<string, string[]>();
  let pos = 0;
  columns.forEach((text, i) => {
    const weight = COLUMN_WEIGHTS[i] ?? 'D';
    for (const lexeme of documentLexemes(text)) {
      pos = Math.min(pos + 1, MAX_POSITION);
      const list = positions.get(lexeme);
      const entry = `${pos}${weight}`;
      if (list === undefined) positions.set(lexeme, [entry]);
      else list.push(entry);
    }
  });
  if (positions.size === 0) return null;
  return [...positions].map(([lexeme, list]) => `${quoteLexeme(lexeme)}:${list.join(',')}`).join(' ');
}

export interface TextQueryPlan {
  /** Exact (stemmed) and prefix terms, OR-ed. */
  strict: string;
  /** Typo-tolerant variants, OR-ed; null when there are none. */
  fuzzy: string | null;
  /** strict OR fuzzy: the index condition. */
  any: string;
}

/**
 * tsquery literals for normalised query tokens and their expansions (one per token, same
 * order). Each token contributes its stem and, from 3 characters on, its stem as a prefix (as
 * SQLite's FTS5 porter tokenizer stems prefix terms: "running" reaches "runner"); variants match
 * as their own stem, as FTS5 re-stems every phrase. Terms
 * are OR-ed so text only narrows and ranks (R-S1). Null when there are no tokens.
 */
export function buildTextQuery(expansions: readonly TermExpansion[]): TextQueryPlan | null {
  if (expansions.length === 0) return null;
  const strict: string[] = [];
  const fuzzy: string[] = [];
  const seen = new Set<string>();
  for (const e of expansions) {
    strict.push(quoteLexeme(e.stem));
    if (e.prefix) strict.push(`${quoteLexeme(e.stem)}:*`);
    for (const v of e.fuzzy) {
      if (seen.has(v)) continue;
      seen.add(v);
      fuzzy.push(quoteLexeme(porterStem(v)));
    }
  }
  const s = strict.join(' | ');
  const f = fuzzy.length > 0 ? fuzzy.join(' | ') : null;
  return { strict: s, fuzzy: f, any: f === null ? s : `${s} | ${f}` };
}

/** Finds vocabulary terms that may be within `maxEdits` of `word` (a superset is fine). */
export type NeighbourSource = (word: string, maxEdits: number) => Promise<readonly VocabularyEntry[]>;

function byCloseness(x: FuzzyMatch, y: FuzzyMatch): number {
  return x.distance - y.distance || y.docs - x.docs || (x.term < y.term ? -1 : x.term > y.term ? 1 : 0);
}

/** Exact neighbours among candidates: the rule `FuzzyVocabulary.similar` applies. */
export function closestTerms(word: string, maxEdits: number, candidates: readonly VocabularyEntry[], limit: number): FuzzyMatch[] {
  if (maxEdits <= 0 || limit <= 0) return [];
  const out: FuzzyMatch[] = [];
  for (const c of candidates) {
    if (c.term === word) continue;
    const d = boundedLevenshtein(word, c.term, maxEdits);
    if (d <= maxEdits) out.push({ term: c.term, docs: c.docs, distance: d });
  }
  out.sort(byCloseness);
  return out.slice(0, limit);
}

/**
 * `expandToken` of domain/text.ts with the vocabulary behind an asynchronous source: the token
 * and its stem are probed, variants equal to either are dropped, the best `MAX_FUZZY_VARIANTS`
 * are kept.
 */
export async function expandTokenWith(token: string, neighbours: NeighbourSource): Promise<TermExpansion> {
  const stem = porterStem(token);
  const found: FuzzyMatch[] = [];
  for (const probe of stem === token ? [stem] : [stem, token]) {
    const k = maxEditsFor(probe);
    if (k <= 0) continue;
    found.push(...closestTerms(probe, k, await neighbours(probe, k), MAX_FUZZY_VARIANTS));
  }
  found.sort(byCloseness);
  const seen = new Set<string>([token, stem]);
  const fuzzy: string[] = [];
  for (const f of found) {
    if (seen.has(f.term)) continue;
    seen.add(f.term);
    fuzzy.push(f.term);
    if (fuzzy.length === MAX_FUZZY_VARIANTS) break;
  }
  return { token, stem, prefix: token.length >= 3, fuzzy };
}
