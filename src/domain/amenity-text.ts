/**
 * What the full-text index holds for a Location's amenities: each description as the Business
 * wrote it, plus the words of the amenity id itself ("dev.ucp.amenity.shopping.curbside_pickup" →
 * "curbside pickup"). The id is the same in every language, so a query naming an amenity by its
 * id's words ("curbside", "wifi", "pharmacy") reaches every Location that has it, whatever language
 * that Location's description is written in ("Abholung am Straßenrand", "店頭受け取り（車）"), and
 * counts as a term match in the amenities field. Query text still only matches and ranks: it never
 * becomes an amenity filter (R-S1).
 */
import { isFillerWord } from './query-text.js';
import { MAX_QUERY_TERMS, porterStem, tokenize } from './text.js';

/** Words of an amenity id's last segment, filler left out ("in_store_pickup" → ["store", "pickup"]). */
export function amenityIdWords(id: string): string[] {
  const last = id.slice(id.lastIndexOf('.') + 1);
  const words = tokenize(last.replace(/[_-]+/g, ' '), (t) => !isFillerWord(t));
  // "wi_fi" is also written "wifi": index the joined form too when the id splits a short word.
  if (words.length > 1 && words.every((w) => w.length <= 2)) words.push(words.join(''));
  return words;
}

/** Id words joined by spaces, per id: a bulk import meets the same few ids millions of times. */
const idText = new Map<string, string>();
const ID_TEXT_CACHE_LIMIT = 10_000;

function idWordsText(id: string): string {
  let text = idText.get(id);
  if (text === undefined) {
    text = amenityIdWords(id).join(' ');
    if (idText.size >= ID_TEXT_CACHE_LIMIT) idText.clear();
    idText.set(id, text);
  }
  return text;
}

/** The amenities column text for one Location: descriptions, then the id words of each amenity. */
export function amenitySearchText(amenities: Readonly<Record<string, { description?: string } | undefined>> | undefined): string {
  if (amenities === undefined) return '';
  const parts: string[] = [];
  for (const [id, value] of Object.entries(amenities)) {
    const description = value?.description;
    if (typeof description === 'string' && description !== '') parts.push(description);
    parts.push(idWordsText(id));
  }
  return parts.filter((p) => p !== '').join(' ');
}

/** The descriptions one amenity id carries in a dataset (any languages). */
export interface AmenityDescriptions {
  id: string;
  descriptions: readonly string[];
}

/** Stemmed, non-filler tokens of a text, as query terms are compared with it. */
function stems(text: string): string[] {
  return tokenize(text, (t) => !isFillerWord(t)).map(porterStem);
}

/**
 * Which amenity a query names by a description written in any of the dataset's languages, so
 * "Apotheke", "farmacia" or "薬局" reach every Location with the pharmacy amenity — including those
 * whose description is in another language — through the amenity's id words, which the index holds
 * for every Location that has it (see `amenitySearchText`). A description names its amenity when
 * every one of its (non-filler) words is among the query's terms, so a word shared with other text
 * ("am" of "Abholung am Straßenrand") never expands a query on its own.
 */
export class AmenityLexicon {
  /** Per distinct description word set: the amenity ids it names. */
  private readonly entries: { words: readonly string[]; ids: string[] }[] = [];

  constructor(amenities: Iterable<AmenityDescriptions>) {
    const byKey = new Map<string, { words: readonly string[]; ids: string[] }>();
    for (const a of amenities) {
      for (const d of a.descriptions) {
        const words = [...new Set(stems(d))].sort();
        if (words.length === 0) continue;
        const key = words.join(' ');
        const entry = byKey.get(key);
        if (entry === undefined) byKey.set(key, { words, ids: [a.id] });
        else if (!entry.ids.includes(a.id)) entry.ids.push(a.id);
      }
    }
    this.entries = [...byKey.values()];
  }

  /**
   * `terms` followed by the id words of every amenity a description names in them (those not
   * already present), at most `MAX_QUERY_TERMS` in all. The added words only widen what the text
   * matches to the Locations that have the named amenity; they filter nothing (R-S1).
   */
  expand(terms: readonly string[]): string[] {
    const out = [...terms];
    const have = new Set(terms.map(porterStem));
    const named = new Set<string>();
    for (const e of this.entries) if (e.words.every((w) => have.has(w))) for (const id of e.ids) named.add(id);
    for (const id of [...named].sort()) {
      for (const w of amenityIdWords(id)) {
        if (out.length >= MAX_QUERY_TERMS) return out;
        if (have.has(porterStem(w))) continue;
        have.add(porterStem(w));
        out.push(w);
      }
    }
    return out;
  }
}
