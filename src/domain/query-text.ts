/**
 * `query` is natural language (R-C2): buyers and agents write "pharmacy near me", "hotels with
 * pool", "Apotheke in der Nähe bitte". The words that only say *how* they ask — "near me", "open
 * now", "please", articles, "find", "show me" — carry no information about which Location they
 * want, yet as search terms they would match names by accident ("the" → "The Liberties", "open" →
 * "open late") and reorder the answer. This module removes them before the terms reach any store,
 * so SQLite, PostgreSQL and any in-memory index search the very same terms.
 *
 * Filler is removed, never reinterpreted: "open now" does not become an opening-hours filter and
 * "near me" does not become a distance (query text never adds or relaxes a predicate, R-S1). A
 * query made only of filler has no terms and searches like a request without `query`.
 *
 * The lists cover the demo dataset's languages (English, German, French, Spanish, Japanese). They
 * hold only words that never name what a Location is or offers; a word that may (for example
 * "open" in "open late", "store", "market") stays a term.
 */
import { normalizeText, tokenize } from './text.js';

/**
 * Phrases removed as a whole, before single words: their parts can be meaningful alone ("open"
 * in "open late"), the phrase never is. Japanese is written without spaces, so its filler is
 * matched as a substring of the normalised text ("近くの薬局" → "薬局").
 */
const FILLER_PHRASES: readonly string[] = [
  // English
  'near me',
  'close to me',
  'close by',
  'around me',
  'around here',
  'open now',
  'open today',
  'open right now',
  'currently open',
  'right now',
  'show me',
  'looking for',
  'i am looking for',
  "i'm looking for",
  'can you',
  'is there',
  'are there',
  'where is',
  'where can i',
  // German
  'in der nähe',
  'in meiner nähe',
  'jetzt geöffnet',
  'jetzt offen',
  'heute geöffnet',
  'gerade offen',
  'zeig mir',
  'zeige mir',
  'gibt es',
  // French
  'près de moi',
  'près d’ici',
  "près d'ici",
  'à proximité',
  'autour de moi',
  'ouvert maintenant',
  "ouvert aujourd'hui",
  'en ce moment',
  "s'il vous plaît",
  's’il vous plaît',
  "s'il te plaît",
  'montre-moi',
  'montrez-moi',
  // Spanish
  'cerca de mí',
  'cerca de aquí',
  'abierto ahora',
  'por favor',
  // Japanese (substrings; longest first is ensured below)
  '近くにある',
  '近くの',
  '近く',
  'この辺の',
  '今開いている',
  '今やっている',
  '営業中の',
  'を探しています',
  'を探して',
  'を教えて',
  'はどこ',
  'ありますか',
  'ください',
  'お願いします',
];

/** Single words that never identify a Location or what it offers (normalised: no accents, lower case). */
const FILLER_WORDS: ReadonlySet<string> = new Set(
  [
    // English
    'a',
    'an',
    'the',
    'with',
    'without',
    'near',
    'nearby',
    'nearest',
    'closest',
    'me',
    'my',
    'i',
    'please',
    'pls',
    'find',
    'show',
    'search',
    'looking',
    'need',
    'want',
    'for',
    'to',
    'that',
    'which',
    'who',
    'where',
    'is',
    'are',
    'any',
    'some',
    'now',
    'today',
    'currently',
    'in',
    'at',
    'of',
    'on',
    'and',
    'or',
    'by',
    'from',
    'can',
    'you',
    'get',
    'there',
    'here',
    'one',
    'has',
    'have',
    'having',
    // German
    'der',
    'die',
    'das',
    'den',
    'dem',
    'des',
    'ein',
    'eine',
    'einen',
    'einem',
    'einer',
    'mit',
    'und',
    'oder',
    'im',
    'bei',
    'beim',
    'nahe',
    'bitte',
    'finde',
    'finden',
    'zeig',
    'zeige',
    'suche',
    'mir',
    'mich',
    'ich',
    'jetzt',
    'geoffnet',
    'wo',
    'von',
    'fur',
    'zum',
    'zur',
    // French
    'le',
    'la',
    'les',
    'l',
    'un',
    'une',
    'du',
    'de',
    'd',
    'avec',
    'et',
    'ou',
    'pres',
    'proche',
    'moi',
    'svp',
    'stp',
    'trouver',
    'trouve',
    'cherche',
    'montre',
    'montrez',
    'maintenant',
    'dans',
    'au',
    'aux',
    'pour',
    'qui',
    'est',
    // Spanish
    'el',
    'los',
    'las',
    'una',
    'con',
    'y',
    'o',
    'cerca',
    'mi',
    'por',
    'favor',
    'ahora',
    'en',
    'para',
    'busca',
    'buscar',
    'encuentra',
    'donde',
  ].map(normalizeText),
);

/** Normalised phrases, longest first so a longer phrase wins over one it contains. */
const PHRASES: readonly string[] = [...new Set(FILLER_PHRASES.map((p) => normalizeText(p).replace(/[’']/g, "'")))].sort(
  (a, b) => b.length - a.length,
);
/** Japanese (and other unspaced) phrases are cut anywhere; spaced phrases only at word edges. */
const UNSPACED = /^[^\s\p{Script=Latin}]+$/u;

/** Whether a normalised single token is filler. */
export function isFillerWord(token: string): boolean {
  return FILLER_WORDS.has(token);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const PHRASE_PATTERNS: readonly RegExp[] = PHRASES.map((p) =>
  UNSPACED.test(p) ? new RegExp(escapeRegExp(p), 'gu') : new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(p)}(?![\\p{L}\\p{N}])`, 'gu'),
);

/** The query with filler phrases replaced by spaces (normalised text). */
export function stripFillerPhrases(query: string): string {
  let text = normalizeText(query).replace(/’/g, "'");
  for (const re of PHRASE_PATTERNS) text = text.replace(re, ' ');
  return text;
}

/**
 * The search terms of a natural-language `query`: its tokens (see `tokenize`) without filler
 * phrases and filler words. Empty when the query holds nothing but filler.
 */
export function queryTerms(query: string): string[] {
  return tokenize(stripFillerPhrases(query), (t) => !FILLER_WORDS.has(t));
}
