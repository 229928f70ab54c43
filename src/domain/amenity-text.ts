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
import { tokenize } from './text.js';

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
