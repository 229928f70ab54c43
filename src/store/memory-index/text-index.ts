/**
 * In-memory inverted index for free text, scoring exactly as the SQLite store does (its FTS5
 * table with `bm25()`; see sqlite/candidate-sql.ts and sqlite/text-plan.ts), so an instance
 * searching from memory ranks text like the embedded store:
 *
 *  - each query token gives the phrases FTS5 would see: its stem, its stem as a prefix (tokens of
 *    3+ characters: FTS5's porter tokenizer stems prefix terms too), and — scored separately at
 *    `FUZZY_WEIGHT` — the stems of its typo-tolerant variants (the SQLite store's own
 *    `IndexVocabulary`, over the domain's `expandToken`, so a change to expansion flows here too);
 *  - bm25 per phrase set: Σ idf·f·(k1+1) / (f + k1·(1 − b + b·|D|/avgdl)), with f the column-weighted
 *    hit count (COLUMN_WEIGHTS), |D| the row's token count over all columns, avgdl over every public
 *    Location and idf = ln((N − n + 0.5)/(n + 0.5)) floored at 1e-6, evaluated in FTS5's order.
 *
 * The PostgreSQL store ranks with `ts_rank` instead, so over PostgreSQL the index orders text
 * matches like SQLite does, not like PostgreSQL's own text search (docs/benchmarks.md, "In-memory
 * index"). Which Locations match is the same on both.
 */
import { compareIds } from '../../domain/ranking.js';
import { porterStem, type VocabularyEntry } from '../../domain/text.js';
import { COLUMN_WEIGHTS, FUZZY_WEIGHT, IndexVocabulary } from '../search-text.js';

const K1 = 1.2;
const B = 0.75;

/** One matchable phrase: an exact stem, or every indexed term starting with `term`. */
interface Phrase {
  term: string;
  prefix: boolean;
}

/** Frequencies pack under row numbers in one float64 key (row · 2^21 + f, exact below 2^53). */
const PACK = 2 ** 21;

/**
 * Collects the terms of rows while an index is built, then packs them (`build`). Rows may arrive
 * in any order and a row may be added to more than once (its keywords come from another table
 * than its other columns): its counts add up.
 */
export class TextIndexBuilder {
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  /** Per term: row number, weighted frequency, row number, … (flat, in arrival order). */
  private readonly postings: number[][] = [];
  private readonly lengths: number[] = [];

  /** Adds stemmed tokens of row `row`, per column (columns in FTS_COLUMNS order). */
  addRow(row: number, columns: readonly (readonly string[])[]): void {
    columns.forEach((stems, column) => this.addColumn(row, column, stems));
  }

  /** Adds stemmed tokens of one column of row `row`. */
  addColumn(row: number, column: number, stems: readonly string[]): void {
    if (stems.length === 0) return;
    const w = COLUMN_WEIGHTS[column] ?? 1;
    this.lengths[row] = (this.lengths[row] ?? 0) + stems.length;
    const weighted = new Map<number, number>();
    for (const stem of stems) {
      let id = this.termIds.get(stem);
      if (id === undefined) {
        id = this.terms.length;
        this.termIds.set(stem, id);
        this.terms.push(stem);
        this.postings.push([]);
      }
      weighted.set(id, (weighted.get(id) ?? 0) + w);
    }
    for (const [id, f] of weighted) this.postings[id]!.push(row, f);
  }

  /**
   * The index over `rows` rows, row number r becoming ordinal `ordinalOf(r)` (undefined: the row is
   * left out). A row's postings of one term (from several columns) are summed into one.
   */
  build(rows: number, ordinalOf: (row: number) => number | undefined = (r) => r): TextIndex {
    const order = this.terms.map((_, i) => i).sort((a, b) => compareIds(this.terms[a]!, this.terms[b]!));
    const terms = order.map((i) => this.terms[i]!);
    // Every term's postings in one pair of arrays (a million rows have millions of distinct terms:
    // two typed arrays per term would cost more in headers than in data). Column weights are whole
    // numbers, so frequencies are too, and 16 bits hold any real one exactly.
    let total = 0;
    // Whole frequencies below 2^21 (always, with integer column weights) pack under their row in
    // one float64 for sorting, and add up in 32 bits.
    let packable = true;
    for (const flat of this.postings) {
      total += flat.length / 2;
      for (let j = 1; j < flat.length && packable; j += 2) {
        const f = flat[j]!;
        if (!(Number.isInteger(f) && f >= 0 && f < PACK)) packable = false;
      }
    }
    const starts = new Uint32Array(terms.length + 1);
    const ords = new Uint32Array(total);
    const sums = packable ? new Uint32Array(total) : new Float64Array(total);
    let at = 0;
    const put = (t: number, o: number, f: number): void => {
      // A row's postings of one term from several columns become one.
      if (at > starts[t]! && ords[at - 1] === o) sums[at - 1] = sums[at - 1]! + f;
      else {
        ords[at] = o;
        sums[at] = f;
        at++;
      }
    };
    order.forEach((i, t) => {
      starts[t] = at;
      const flat = this.postings[i]!;
      if (packable) {
        const keyed = new Float64Array(flat.length / 2);
        let n = 0;
        for (let j = 0; j < flat.length; j += 2) {
          const o = ordinalOf(flat[j]!);
          if (o !== undefined) keyed[n++] = o * PACK + flat[j + 1]!;
        }
        const sorted = keyed.subarray(0, n).sort();
        for (let j = 0; j < n; j++) {
          const k = sorted[j]!;
          const o = Math.floor(k / PACK);
          put(t, o, k - o * PACK);
        }
      } else {
        const list: [number, number][] = [];
        for (let j = 0; j < flat.length; j += 2) {
          const o = ordinalOf(flat[j]!);
          if (o !== undefined) list.push([o, flat[j + 1]!]);
        }
        list.sort((a, b) => a[0] - b[0]);
        for (const [o, f] of list) put(t, o, f);
      }
      this.postings[i] = [];
    });
    starts[terms.length] = at;
    let maxFreq = 0;
    for (let j = 0; j < at; j++) maxFreq = Math.max(maxFreq, sums[j]!);
    const freqs = packable && maxFreq <= 0xffff ? Uint16Array.from(sums.subarray(0, at)) : Float64Array.from(sums.subarray(0, at));
    const lengths = new Uint32Array(rows);
    let tokens = 0;
    this.lengths.forEach((l, r) => {
      const o = ordinalOf(r);
      if (o === undefined || o >= rows) return;
      lengths[o] = l;
      tokens += l;
    });
    // Merged duplicates leave a tail unused: a view, not a copy.
    return new TextIndex(terms, { starts, ords: ords.subarray(0, at), freqs }, lengths, rows, tokens);
  }
}

/** Postings of every term: term t's rows are ords[starts[t] .. starts[t + 1]), ascending, with their weighted frequencies. */
export interface TextPostings {
  starts: Uint32Array;
  ords: Uint32Array;
  freqs: Uint16Array | Float64Array;
}

export class TextIndex {
  /** The same vocabulary object the SQLite store expands query tokens with (fuzzy variants, cache). */
  private readonly vocabulary: IndexVocabulary;
  private readonly avgdl: number;

  constructor(
    /** Distinct stems in code-point order. */
    private readonly terms: readonly string[],
    private readonly postings: TextPostings,
    /** Tokens per row over all columns. */
    private readonly lengths: Uint32Array,
    private readonly rows: number,
    private readonly totalTokens: number,
  ) {
    const { starts } = postings;
    const entries: VocabularyEntry[] = terms.map((term, i) => ({ term, docs: starts[i + 1]! - starts[i]! }));
    this.vocabulary = new IndexVocabulary(entries);
    this.avgdl = totalTokens / rows;
  }

  /** What the index is made of (index-snapshot.ts writes it to a file and reads it back). */
  snapshot(): { terms: readonly string[]; postings: Readonly<TextPostings>; lengths: Uint32Array; rows: number; totalTokens: number } {
    return { terms: this.terms, postings: this.postings, lengths: this.lengths, rows: this.rows, totalTokens: this.totalTokens };
  }

  /** The postings of term number `t`. */
  private postingsOf(t: number): { ords: Uint32Array; freqs: Uint16Array | Float64Array } {
    const { starts, ords, freqs } = this.postings;
    const from = starts[t]!;
    const to = starts[t + 1]!;
    return { ords: ords.subarray(from, to), freqs: freqs.subarray(from, to) };
  }

  /** FTS5's idf of a phrase hitting `count` rows: ln((N − n + 0.5)/(n + 0.5)), floored at 1e-6. */
  private idf(count: number): number {
    const idf = Math.log((this.rows - count + 0.5) / (count + 0.5));
    return idf <= 0 ? 1e-6 : idf;
  }

  /** One phrase's bm25 part for row `o`, where it has weighted frequency `f`. */
  private termScore(idf: number, f: number, o: number): number {
    const d = this.lengths[o]!;
    return idf * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * d) / this.avgdl)));
  }

  /** First term index whose term is >= `t` in code-point order. */
  private lowerBound(t: string): number {
    let lo = 0;
    let hi = this.terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareIds(this.terms[mid]!, t) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The phrases FTS5 is given for these tokens (sqlite/text-plan.ts planText), strict and fuzzy. */
  private phrases(tokens: readonly string[]): { strict: Phrase[]; fuzzy: Phrase[] } {
    const strict: Phrase[] = [];
    const fuzzy: Phrase[] = [];
    const seen = new Set<string>();
    for (const token of tokens) {
      const e = this.vocabulary.expand(token);
      // FTS5 runs every phrase through its porter tokenizer, prefix phrases included.
      strict.push({ term: porterStem(token), prefix: false });
      if (e.prefix) strict.push({ term: porterStem(token), prefix: true });
      for (const v of e.fuzzy) {
        if (seen.has(v)) continue;
        seen.add(v);
        fuzzy.push({ term: porterStem(v), prefix: false });
      }
    }
    return { strict, fuzzy };
  }

  /** Per-row scratch for one search (a search runs to its end synchronously, so one set suffices). */
  private scratchSpace: Scratch | null = null;

  private scratch(): Scratch {
    return (this.scratchSpace ??= {
      strict: new Float64Array(this.rows),
      fuzzy: new Float64Array(this.rows),
      prefix: new Float64Array(this.rows),
      flags: new Uint8Array(this.rows),
    });
  }

  /** Terms a phrase covers: [start, end) in term order (one term, or every term with the prefix). */
  private termRange(p: Phrase): [number, number] {
    const start = this.lowerBound(p.term);
    if (!p.prefix) return this.terms[start] === p.term ? [start, start + 1] : [start, start];
    return [start, this.lowerBound(`${p.term}\u{10FFFF}`)];
  }

  /**
   * Weighted frequency per row of one phrase (prefix phrases sum over their terms, term by term in
   * code-point order, rows in first-hit order: the additions FTS5 makes).
   */
  private phraseHits(p: Phrase, s: Scratch): { ords: ArrayLike<number>; freqs: ArrayLike<number> } | null {
    const [start, end] = this.termRange(p);
    if (end === start) return null;
    if (end - start === 1) return this.postingsOf(start);
    const ords: number[] = [];
    const sum = s.prefix;
    for (let t = start; t < end; t++) {
      const posting = this.postingsOf(t);
      for (let j = 0; j < posting.ords.length; j++) {
        const o = posting.ords[j]!;
        if ((s.flags[o]! & PREFIX) === 0) {
          s.flags[o] = s.flags[o]! | PREFIX;
          ords.push(o);
        }
        sum[o] = sum[o]! + posting.freqs[j]!;
      }
    }
    const freqs = new Float64Array(ords.length);
    for (let j = 0; j < ords.length; j++) {
      const o = ords[j]!;
      freqs[j] = sum[o]!;
      sum[o] = 0;
      s.flags[o] = s.flags[o]! & ~PREFIX;
    }
    return { ords, freqs };
  }

  /**
   * Adds the bm25 score (positive, larger is better) of every row matching any of `phrases` into
   * `acc`, marking rows with `bit`; rows seen for the first time in this search go to `touched`.
   */
  private bm25(phrases: readonly Phrase[], acc: Float64Array, bit: number, s: Scratch, touched: number[]): void {
    const flags = s.flags;
    for (const p of phrases) {
      const hits = this.phraseHits(p, s);
      if (hits === null) continue;
      const count = hits.ords.length;
      if (count === 0) continue;
      const idf = this.idf(count);
      for (let j = 0; j < count; j++) {
        const o = hits.ords[j]!;
        const part = this.termScore(idf, hits.freqs[j]!, o);
        const was = flags[o]!;
        if ((was & (STRICT | FUZZY)) === 0) touched.push(o);
        flags[o] = was | bit;
        acc[o] = acc[o]! + part;
      }
    }
  }

  /**
   * Every row matching the normalised query tokens, ascending, with its relevance: the strict
   * score plus FUZZY_WEIGHT times the fuzzy score, as the SQLite store sums them. Dense per-row
   * accumulators instead of maps: a common word matches a large share of a million rows.
   */
  search(tokens: readonly string[]): TextHits {
    if (tokens.length === 0 || this.rows === 0) return noHits();
    const s = this.scratch();
    const touched: number[] = [];
    try {
      const { strict, fuzzy } = this.phrases(tokens);
      this.bm25(strict, s.strict, STRICT, s, touched);
      if (fuzzy.length > 0) this.bm25(fuzzy, s.fuzzy, FUZZY, s, touched);
      // Ascending rows: when many rows matched, one pass over the flags is cheaper than a sort.
      let ords: Uint32Array;
      if (touched.length * 16 > this.rows) {
        ords = new Uint32Array(touched.length);
        let w = 0;
        const flags = s.flags;
        for (let o = 0; o < this.rows; o++) if ((flags[o]! & (STRICT | FUZZY)) !== 0) ords[w++] = o;
      } else ords = Uint32Array.from(touched).sort();
      const scores = new Float64Array(ords.length);
      for (let i = 0; i < ords.length; i++) {
        const o = ords[i]!;
        const f = s.flags[o]!;
        scores[i] = relevance((f & STRICT) === 0 ? null : s.strict[o]!, (f & FUZZY) === 0 ? null : s.fuzzy[o]!);
      }
      return { ords, scores };
    } finally {
      for (const o of touched) {
        s.strict[o] = 0;
        s.fuzzy[o] = 0;
        s.flags[o] = 0;
      }
    }
  }

  /** Rows hit by a prefix phrase of several terms (its idf's n), per index: computing it reads every posting once. */
  private readonly prefixRows = new Map<string, number>();

  private rowsHit(p: Phrase, range: [number, number], s: Scratch): number {
    const { starts } = this.postings;
    if (range[1] - range[0] <= 1) return range[1] === range[0] ? 0 : starts[range[0] + 1]! - starts[range[0]]!;
    let n = this.prefixRows.get(p.term);
    if (n === undefined) {
      n = this.phraseHits(p, s)?.ords.length ?? 0;
      if (this.prefixRows.size >= 10_000) this.prefixRows.clear();
      this.prefixRows.set(p.term, n);
    }
    return n;
  }

  /**
   * `search(tokens)` restricted to `rows` (ascending ordinals), scored row by row: each phrase's
   * frequency in a row is found by binary search in its terms' postings. The additions are the
   * ones `search` makes for that row, in the same order, so the scores are identical; what changes
   * is the cost — proportional to the rows asked about, not to every match of a common word. When
   * the rows are many compared with the postings involved, `search` and an intersection are used.
   */
  searchAmong(tokens: readonly string[], rows: Uint32Array, path: 'auto' | 'rows' | 'intersect' = 'auto'): TextHits {
    if (tokens.length === 0 || this.rows === 0 || rows.length === 0) return noHits();
    const s = this.scratch();
    const { strict, fuzzy } = this.phrases(tokens);
    const { starts, ords, freqs } = this.postings;
    const plan = (list: readonly Phrase[]): { range: [number, number]; idf: number }[] =>
      list.map((p) => {
        const range = this.termRange(p);
        return { range, idf: this.idf(this.rowsHit(p, range, s)) };
      });
    const strictPlan = plan(strict);
    const fuzzyPlan = plan(fuzzy);
    let postings = 0;
    let lists = 0;
    for (const { range } of [...strictPlan, ...fuzzyPlan]) {
      postings += starts[range[1]]! - starts[range[0]]!;
      lists += range[1] - range[0];
    }
    // A binary search per (row, term) costs about log2 of a list; a scan of all postings one step each.
    if (path === 'intersect' || (path === 'auto' && rows.length * lists * 20 > postings)) return intersect(this.search(tokens), rows);

    const score = (o: number, phrases: readonly { range: [number, number]; idf: number }[]): number | null => {
      let total: number | null = null;
      for (const { range, idf } of phrases) {
        let f = 0;
        let hit = false;
        for (let t = range[0]; t < range[1]; t++) {
          const j = binarySearch(ords, starts[t]!, starts[t + 1]!, o);
          if (j < 0) continue;
          f += freqs[j]!;
          hit = true;
        }
        if (!hit) continue;
        total = (total ?? 0) + this.termScore(idf, f, o);
      }
      return total;
    };
    const outOrds: number[] = [];
    const outScores: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      const o = rows[i]!;
      const strictScore = score(o, strictPlan);
      const fuzzyScore = fuzzyPlan.length > 0 ? score(o, fuzzyPlan) : null;
      if (strictScore === null && fuzzyScore === null) continue;
      outOrds.push(o);
      outScores.push(relevance(strictScore, fuzzyScore));
    }
    return { ords: Uint32Array.from(outOrds), scores: Float64Array.from(outScores) };
  }
}

/** A row's relevance from its strict and fuzzy scores (null: no phrase of that kind hit it), as the SQLite store sums them. */
function relevance(strict: number | null, fuzzy: number | null): number {
  const weighted = fuzzy === null ? 0 : FUZZY_WEIGHT * fuzzy;
  return strict === null ? weighted : fuzzy === null ? strict : strict + weighted;
}

function noHits(): TextHits {
  return { ords: new Uint32Array(0), scores: new Float64Array(0) };
}

/** Position of `o` in ascending `a[from, to)`, or -1. */
function binarySearch(a: Uint32Array, from: number, to: number, o: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < o) lo = mid + 1;
    else hi = mid;
  }
  return lo < to && a[lo] === o ? lo : -1;
}

/** The hits whose row is in `rows` (both ascending). */
function intersect(hits: TextHits, rows: Uint32Array): TextHits {
  const ords: number[] = [];
  const scores: number[] = [];
  let j = 0;
  for (let i = 0; i < hits.ords.length && j < rows.length;) {
    const a = hits.ords[i]!;
    const b = rows[j]!;
    if (a < b) i++;
    else if (b < a) j++;
    else {
      ords.push(a);
      scores.push(hits.scores[i]!);
      i++;
      j++;
    }
  }
  return { ords: Uint32Array.from(ords), scores: Float64Array.from(scores) };
}

/** Rows a text query matches, ordinals ascending, and their relevance (same positions). */
export interface TextHits {
  ords: Uint32Array;
  scores: Float64Array;
}

interface Scratch {
  strict: Float64Array;
  fuzzy: Float64Array;
  prefix: Float64Array;
  /** Per row: STRICT / FUZZY (scored in this search), PREFIX (summing a prefix phrase). */
  flags: Uint8Array;
}

const STRICT = 1;
const FUZZY = 2;
const PREFIX = 4;
