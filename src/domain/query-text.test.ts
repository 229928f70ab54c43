import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AmenityLexicon, amenityIdWords, amenitySearchText } from './amenity-text.js';
import { queryTerms } from './query-text.js';

describe('queryTerms: natural-language filler is not a search term (R-C2)', () => {
  it.each([
    ['restaurants near me that deliver', ['restaurants', 'deliver']],
    ['hotels with pool', ['hotels', 'pool']],
    ['pharmacy open now please', ['pharmacy']],
    ['Show me a store with curbside pickup', ['store', 'curbside', 'pickup']],
    ['Apotheke in der Nähe bitte', ['apotheke']],
    ['pharmacie près de moi s’il vous plaît', ['pharmacie']],
    ["boulangerie ouverte à proximité s'il vous plaît", ['boulangerie', 'ouverte']],
    ['farmacia cerca de mí por favor', ['farmacia']],
    ['近くの薬局を探しています', ['薬局']],
  ])('%s → %j', (query, terms) => {
    expect(queryTerms(query)).toEqual(terms);
  });

  it('keeps words that can name a Location or what it offers ("open late", place names)', () => {
    expect(queryTerms('open late')).toEqual(['open', 'late']);
    expect(queryTerms('Meridian Market Le Marais')).toEqual(['meridian', 'market', 'marais']);
    expect(queryTerms('De Pijp')).toEqual(['pijp']);
  });

  it('a query of nothing but filler has no terms (searches like no query at all)', () => {
    expect(queryTerms('near me')).toEqual([]);
    expect(queryTerms('please show me the one open now')).toEqual([]);
  });

  it('adding filler anywhere never changes the terms (property)', () => {
    const real = ['pharmacy', 'bakery', 'store', 'late', 'berlin', 'wifi'];
    const filler = ['please', 'the', 'with', 'near', 'me', 'nearby', 'bitte', 'moi', 'find', 'a'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...real, ...filler), { maxLength: 14 }), (words) => {
        expect(queryTerms(words.join(' '))).toEqual([...new Set(words.filter((w) => real.includes(w)))]);
      }),
    );
  });

  it('filler never uses up the term budget', () => {
    const filler = Array.from({ length: 40 }, () => 'please the with near').join(' ');
    expect(queryTerms(`${filler} pharmacy`)).toEqual(['pharmacy']);
  });
});

describe('amenity id words in the index', () => {
  it('takes the words of the id’s last segment, without filler', () => {
    expect(amenityIdWords('dev.ucp.amenity.shopping.curbside_pickup')).toEqual(['curbside', 'pickup']);
    expect(amenityIdWords('dev.ucp.amenity.shopping.in_store_pickup')).toEqual(['store', 'pickup']);
    expect(amenityIdWords('dev.ucp.amenity.wi_fi')).toEqual(['wi', 'fi', 'wifi']);
    expect(amenityIdWords('com.example.meridian.amenity.pharmacy')).toEqual(['pharmacy']);
  });

  it('indexes descriptions and id words together', () => {
    expect(
      amenitySearchText({
        'com.example.meridian.amenity.pharmacy': { description: 'Apotheke' },
        'dev.ucp.amenity.parking': {},
      }),
    ).toBe('Apotheke pharmacy parking');
    expect(amenitySearchText(undefined)).toBe('');
  });
});

describe('AmenityLexicon: a description in any language names its amenity', () => {
  const lexicon = new AmenityLexicon([
    { id: 'com.example.amenity.pharmacy', descriptions: ['Pharmacy', 'Apotheke', '薬局'] },
    { id: 'dev.ucp.amenity.shopping.curbside_pickup', descriptions: ['Curbside pickup', 'Abholung am Straßenrand'] },
  ]);

  it('adds the id words of the amenity a whole description names', () => {
    expect(lexicon.expand(['apotheke'])).toEqual(['apotheke', 'pharmacy']);
    expect(lexicon.expand(['薬局'])).toEqual(['薬局', 'pharmacy']);
    expect(lexicon.expand(['abholung', 'am', 'straßenrand'])).toEqual(['abholung', 'am', 'straßenrand', 'curbside', 'pickup']);
  });

  it('adds nothing for part of a description, or for words already there', () => {
    expect(lexicon.expand(['am'])).toEqual(['am']);
    expect(lexicon.expand(['abholung'])).toEqual(['abholung']);
    expect(lexicon.expand(['pharmacies'])).toEqual(['pharmacies']);
    expect(lexicon.expand(['curbside', 'pickup'])).toEqual(['curbside', 'pickup']);
  });
});
