/**
 * Free-text handling for `query` (R-S1: text only narrows and ranks, it never creates or relaxes
 * a structured predicate).
 *
 * The pieces here are pure and store-neutral:
 *  - `normalizeText` / `tokenize`: the same folding SQLite's `unicode61 remove_diacritics 2`
 *    tokenizer applies (compatibility decomposition, marks dropped, lower-case, split on anything
 *    that is not a letter or digit), so query tokens line up with indexed tokens;
 *  - `porterStem`: the (revised) Porter algorithm, used to compare a query word with an index
 *    vocabulary made of stems (FTS5 `porter` stores stems, e.g. "grocers" → "grocer");
 *  - `boundedLevenshtein` + `FuzzyVocabulary`: typo tolerance by edit distance over a trigram
 *    index of the vocabulary, so "grcery" still reaches "grocer".
 */
import { elementAt } from '../protocol/guards.js';

/** Words longer than this are not stemmed or fuzzed (matches FTS5's porter pass-through). */
const MAX_STEM_LENGTH = 64;
/** At most this many distinct tokens of a query are used; the rest are ignored (abuse guard). */
export const MAX_QUERY_TERMS = 16;
/** Tokens longer than this are cut (no real word is longer; bounds the edit-distance work). */
export const MAX_TERM_LENGTH = 64;

const MARKS = /\p{M}+/gu;
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;

/** Compatibility-decompose, drop combining marks, lower-case ("Crème BRÛLÉE" → "creme brulee"). */
export function normalizeText(input: string): string {
  return input.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

/**
 * Distinct normalised tokens in order of first appearance, at most `MAX_QUERY_TERMS`, each at
 * most `MAX_TERM_LENGTH` characters. Punctuation-only input yields `[]`. Tokens `keep` rejects
 * are skipped before counting, so they never use up the term budget.
 */
export function tokenize(input: string, keep: (token: string) => boolean = () => true): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of normalizeText(input).matchAll(TOKEN)) {
    const token = m[0].slice(0, MAX_TERM_LENGTH);
    if (seen.has(token)) continue;
    seen.add(token);
    if (!keep(token)) continue;
    out.push(token);
    if (out.length === MAX_QUERY_TERMS) break;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Porter stemmer (M. F. Porter, 1980, with the later "bli"→"ble" and "logi"→"log" revisions that
// SQLite's FTS5 porter tokenizer also uses). Works on ASCII lower-case words; anything else, and
// words shorter than 3 characters, pass through unchanged, as in FTS5.

function isConsonantAt(w: string, i: number): boolean {
  const c = w.charCodeAt(i);
  // a e i o u
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false;
  // 'y' is a vowel after a consonant, a consonant at the start or after a vowel.
  if (c === 121) return i === 0 ? true : !isConsonantAt(w, i - 1);
  return true;
}

/** Porter's m: the number of vowel-consonant sequences in w[0, end). */
function measure(w: string, end: number): number {
  let m = 0;
  let i = 0;
  while (i < end && isConsonantAt(w, i)) i++;
  while (i < end) {
    while (i < end && !isConsonantAt(w, i)) i++;
    if (i >= end) break;
    while (i < end && isConsonantAt(w, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonantAt(w, i)) return true;
  return false;
}

function endsWithDoubleConsonant(w: string, end: number): boolean {
  return end >= 2 && w[end - 1] === w[end - 2] && isConsonantAt(w, end - 1);
}

/** consonant-vowel-consonant ending where the last consonant is not w, x or y. */
function endsCvc(w: string, end: number): boolean {
  if (end < 3) return false;
  if (!isConsonantAt(w, end - 1) || isConsonantAt(w, end - 2) || !isConsonantAt(w, end - 3)) return false;
  const last = w[end - 1];
  return last !== 'w' && last !== 'x' && last !== 'y';
}

/**
 * Replace `suffix` by `replacement` when the word ends with it and the remaining stem has
 * measure > `minMeasure`. Returns the new word, or null when the suffix is absent. A present
 * suffix whose condition fails returns the word unchanged (Porter: the longest suffix decides).
 */
function replaceIfMeasure(w: string, suffix: string, replacement: string, minMeasure: number): string | null {
  if (!w.endsWith(suffix)) return null;
  const stemEnd = w.length - suffix.length;
  return measure(w, stemEnd) > minMeasure ? w.slice(0, stemEnd) + replacement : w;
}

const STEP2: readonly (readonly [string, string])[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];
const STEP3: readonly (readonly [string, string])[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];
const STEP4: readonly string[] = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
];

/** Apply the rule whose suffix is the longest one the word ends with. */
function longestRule(w: string, rules: readonly (readonly [string, string])[], minMeasure: number): string {
  let best: readonly [string, string] | undefined;
  for (const rule of rules) {
    if (w.endsWith(rule[0]) && (best === undefined || rule[0].length > best[0].length)) best = rule;
  }
  if (best === undefined) return w;
  return replaceIfMeasure(w, best[0], best[1], minMeasure) ?? w;
}

function step1ab(w: string): string {
  // Step 1a: plurals.
  // (FTS5 only rewrites -sses/-ies when something precedes them: "ies" → "ie", as SQLite does.)
  if (w.endsWith('sses') && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith('ies') && w.length > 3) w = w.slice(0, -2);
  else if (w.endsWith('ss')) {
    /* unchanged */
  } else if (w.endsWith('s')) w = w.slice(0, -1);

  // Step 1b: -eed, -ed, -ing.
  if (w.endsWith('eed')) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
    return w;
  }
  let cut: string | null = null;
  if (w.endsWith('ed') && hasVowel(w, w.length - 2)) cut = w.slice(0, -2);
  else if (w.endsWith('ing') && hasVowel(w, w.length - 3)) cut = w.slice(0, -3);
  if (cut === null) return w;
  w = cut;
  if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return `${w}e`;
  if (endsWithDoubleConsonant(w, w.length)) {
    const last = w[w.length - 1];
    return last === 'l' || last === 's' || last === 'z' ? w : w.slice(0, -1);
  }
  if (measure(w, w.length) === 1 && endsCvc(w, w.length)) return `${w}e`;
  return w;
}

/** Porter stem of an ASCII lower-case word; other input is returned unchanged. */
export function porterStem(word: string): string {
  if (word.length < 3 || word.length > MAX_STEM_LENGTH || !/^[a-z]+$/.test(word)) return word;
  let w = step1ab(word);
  // Step 1c: y → i after a vowel-bearing stem.
  if (w.endsWith('y') && hasVowel(w, w.length - 1)) w = `${w.slice(0, -1)}i`;
  w = longestRule(w, STEP2, 0);
  w = longestRule(w, STEP3, 0);
  // Step 4: drop a suffix when the stem keeps measure > 1 ('ion' only after s or t).
  let best: string | undefined;
  for (const s of STEP4) if (w.endsWith(s) && (best === undefined || s.length > best.length)) best = s;
  if (best !== undefined) {
    const stemEnd = w.length - best.length;
    const ionOk = best !== 'ion' || (stemEnd > 0 && (w[stemEnd - 1] === 's' || w[stemEnd - 1] === 't'));
    if (ionOk && measure(w, stemEnd) > 1) w = w.slice(0, stemEnd);
  }
  // Step 5a: final e.
  if (w.endsWith('e')) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !endsCvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  // Step 5b: -ll → -l.
  if (measure(w, w.length) > 1 && endsWithDoubleConsonant(w, w.length) && w.endsWith('l')) w = w.slice(0, -1);
  return w;
}

// ---------------------------------------------------------------------------------------------
// Edit distance and fuzzy vocabulary.

/**
 * Levenshtein distance (insert, delete, substitute; each cost 1) when it is ≤ `max`, else
 * `max + 1`. Runs in O(len · (2·max+1)) using a diagonal band, so it is cheap for small `max`.
 */
export function boundedLevenshtein(a: string, b: string, max: number): number {
  if (a === b) return 0;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  if (la === 0 || lb === 0) return Math.max(la, lb) <= max ? Math.max(la, lb) : max + 1;
  const big = max + 1;
  let prev = new Array<number>(lb + 1);
  let curr = new Array<number>(lb + 1);
  for (let j = 0; j <= lb; j++) prev[j] = j <= max ? j : big;
  for (let i = 1; i <= la; i++) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(lb, i + max);
    curr.fill(big);
    curr[0] = i <= max ? i : big;
    let rowMin = curr[0];
    const ca = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const v = Math.min((prev[j - 1] as number) + cost, (prev[j] as number) + 1, (curr[j - 1] as number) + 1);
      curr[j] = v > big ? big : v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return big;
    const t = prev;
    prev = curr;
    curr = t;
  }
  const d = prev[lb] as number;
  return d <= max ? d : big;
}

/**
 * Edits tolerated for a word of this length: none up to 3 characters (too many neighbours),
 * one for 4–5, two from 6 on.
 */
export function maxEditsFor(word: string): number {
  if (word.length <= 3) return 0;
  if (word.length <= 5) return 1;
  return 2;
}

/** Distinct padded trigrams of a word ("\u0001\u0001w…\u0002\u0002" framing marks both ends). */
function trigrams(word: string): string[] {
  const padded = `\u0001\u0001${word}\u0002\u0002`;
  const set = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) set.add(padded.slice(i, i + 3));
  return [...set];
}

export interface VocabularyEntry {
  term: string;
  /** Number of documents containing the term (ties between equally close variants). */
  docs: number;
}

export interface FuzzyMatch extends VocabularyEntry {
  distance: number;
}

/** Closest first, then most frequent, then alphabetical. */
function compareMatches(x: FuzzyMatch, y: FuzzyMatch): number {
  return x.distance - y.distance || y.docs - x.docs || (x.term < y.term ? -1 : x.term > y.term ? 1 : 0);
}

/**
 * Index of an index vocabulary for edit-distance look-ups. Candidates are found through shared
 * trigrams: one edit destroys at most three of a word's padded trigrams, so a term within `k`
 * edits of `w` shares at least |trigrams(w)| − 3k of them; only those are checked exactly.
 */
export class FuzzyVocabulary {
  private readonly terms: string[] = [];
  private readonly docs: number[] = [];
  private readonly postings = new Map<string, number[]>();

  constructor(entries: Iterable<VocabularyEntry>) {
    for (const e of entries) {
      if (e.term.length === 0 || e.term.length > MAX_TERM_LENGTH) continue;
      const idx = this.terms.length;
      this.terms.push(e.term);
      this.docs.push(e.docs);
      for (const g of trigrams(e.term)) {
        const list = this.postings.get(g);
        if (list === undefined) this.postings.set(g, [idx]);
        else list.push(idx);
      }
    }
  }

  get size(): number {
    return this.terms.length;
  }

  /**
   * Vocabulary terms within `maxEdits` of `word` (excluding `word` itself), closest first, then
   * most frequent, then alphabetical; at most `limit`.
   */
  similar(word: string, maxEdits: number, limit: number): FuzzyMatch[] {
    if (maxEdits <= 0 || limit <= 0) return [];
    const grams = trigrams(word);
    const threshold = grams.length - 3 * maxEdits;
    let candidates: Iterable<number>;
    if (threshold <= 0) {
      // Very short word, many edits: a match may share no trigram at all, so check every term
      // (maxEditsFor never asks for this; the class stays exact for any caller).
      candidates = this.terms.keys();
    } else {
      const counts = new Map<number, number>();
      for (const g of grams) {
        const list = this.postings.get(g);
        if (list === undefined) continue;
        for (const idx of list) counts.set(idx, (counts.get(idx) ?? 0) + 1);
      }
      candidates = [...counts].filter(([, shared]) => shared >= threshold).map(([idx]) => idx);
    }
    const out: FuzzyMatch[] = [];
    for (const idx of candidates) {
      const term = elementAt(this.terms, idx);
      if (term === word) continue;
      const d = boundedLevenshtein(word, term, maxEdits);
      if (d <= maxEdits) out.push({ term, docs: elementAt(this.docs, idx), distance: d });
    }
    out.sort(compareMatches);
    return out.slice(0, limit);
  }
}

/** How one query token is searched. */
export interface TermExpansion {
  /** The normalised token as typed. */
  token: string;
  /** Its Porter stem (equal to `token` when stemming does not apply). */
  stem: string;
  /** Also match indexed words starting with the token's stem (only for tokens of ≥ 3 characters). */
  prefix: boolean;
  /** Vocabulary terms close to the token or its stem (typo tolerance), best first. */
  fuzzy: string[];
}

/** Fuzzy variants kept per query token; more only add noise and cost. */
export const MAX_FUZZY_VARIANTS = 8;

/**
 * Expand one token against a vocabulary of indexed (stemmed) terms. Variants equal to the stem
 * are left out because the exact match already covers them.
 */
export function expandToken(token: string, vocabulary: FuzzyVocabulary | null): TermExpansion {
  const stem = porterStem(token);
  const fuzzy: string[] = [];
  if (vocabulary !== null) {
    const seen = new Set<string>([token, stem]);
    const found: FuzzyMatch[] = [];
    for (const probe of stem === token ? [stem] : [stem, token]) {
      found.push(...vocabulary.similar(probe, maxEditsFor(probe), MAX_FUZZY_VARIANTS));
    }
    found.sort(compareMatches);
    for (const f of found) {
      if (seen.has(f.term)) continue;
      seen.add(f.term);
      fuzzy.push(f.term);
      if (fuzzy.length === MAX_FUZZY_VARIANTS) break;
    }
  }
  return { token, stem, prefix: token.length >= 3, fuzzy };
}
