import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Location, RecordLanguages } from './location.js';
import {
  canonicalLanguageTag,
  languageTagProblem,
  localizeLocation,
  lookupLanguage,
  parseLanguagePriorityList,
  requestedLanguages,
} from './localize.js';

describe('language tags and priority lists (R-C3)', () => {
  it('canonicalises well-formed BCP 47 tags and refuses the rest', () => {
    expect(canonicalLanguageTag('EN-us')).toBe('en-US');
    expect(canonicalLanguageTag('zh-hant-tw')).toBe('zh-Hant-TW');
    expect(canonicalLanguageTag('iw')).toBe('he');
    for (const bad of ['', 'en_US', 'e', '*', ' en', 'english-language-tag-x']) expect(canonicalLanguageTag(bad)).toBeNull();
    expect(languageTagProblem('en_US')).toMatch(/"en-US"/);
    expect(languageTagProblem(7)).toMatch(/BCP 47/);
    expect(languageTagProblem('de-CH')).toBeNull();
  });

  it('reads Accept-Language by weight, keeping header order for equal weights', () => {
    expect(parseLanguagePriorityList('fr-CA, fr;q=0.8, en;q=0.9, *;q=0.1')).toEqual(['fr-CA', 'en', 'fr']);
    expect(parseLanguagePriorityList('de;q=0, en')).toEqual(['en']);
    expect(parseLanguagePriorityList('ja;q=0.5, en_US, x;q=1, de;q=2, es;foo=1')).toEqual(['ja']);
    expect(parseLanguagePriorityList('')).toEqual([]);
    expect(parseLanguagePriorityList('en, EN;q=0.1')).toEqual(['en']);
  });

  it('context.language wins over Accept-Language; an unreadable one is ignored', () => {
    expect(requestedLanguages({ language: 'en' }, 'de')).toEqual(['en']);
    expect(requestedLanguages({ language: 'en_GB' }, 'de')).toEqual(['de']);
    expect(requestedLanguages({ language: 42 }, undefined)).toEqual([]);
    expect(requestedLanguages(undefined, 'fr-CA,fr;q=0.5')).toEqual(['fr-CA', 'fr']);
  });
});

describe('RFC 4647 lookup (R-C3)', () => {
  it('falls back by truncation, then to the next range, then to null', () => {
    expect(lookupLanguage(['fr-CA'], ['de', 'fr'])).toBe('fr');
    expect(lookupLanguage(['zh-Hant-TW'], ['zh-Hant', 'zh'])).toBe('zh-Hant');
    expect(lookupLanguage(['en-US-u-ca-gregory'], ['en-US'])).toBe('en-US');
    expect(lookupLanguage(['ja', 'fr-CA'], ['fr'])).toBe('fr');
    expect(lookupLanguage(['fr'], ['fr-CA'])).toBeNull(); // lookup never widens a range
    expect(lookupLanguage(['de'], [])).toBeNull();
  });

  const subtag = fc.constantFrom('en', 'fr', 'de', 'zh', 'ja');
  const region = fc.constantFrom('US', 'CA', 'GB', 'CH', 'TW');
  const script = fc.constantFrom('Hant', 'Latn');
  const tag = fc
    .tuple(subtag, fc.option(script, { nil: undefined }), fc.option(region, { nil: undefined }))
    .map(([l, s, r]) => [l, s, r].filter((x) => x !== undefined).join('-'));

  it('property: the result is always one of the available tags, or null', () => {
    fc.assert(
      fc.property(fc.array(tag, { maxLength: 4 }), fc.uniqueArray(tag, { maxLength: 6 }), (ranges, available) => {
        const hit = lookupLanguage(ranges, available);
        expect(hit === null || available.includes(hit)).toBe(true);
        // and null only when no range (or any of its prefixes) is available
        if (hit === null) for (const r of ranges) expect(available.some((a) => r === a || r.startsWith(`${a}-`))).toBe(false);
      }),
    );
  });

  it('property: a more specific available tag always wins over its prefix', () => {
    fc.assert(
      fc.property(tag, fc.uniqueArray(tag, { maxLength: 6 }), (range, others) => {
        const prefix = range.split('-')[0] as string;
        const available = [...new Set([prefix, ...others, range])];
        expect(lookupLanguage([range], available)).toBe(range);
      }),
    );
  });
});

describe('localizeLocation (R-C3)', () => {
  const doc: Location = {
    id: 'loc_berlin',
    name: 'Markt Mitte',
    amenities: { 'dev.ucp.amenity.wi_fi': { description: 'Kostenloses WLAN' }, 'dev.ucp.amenity.parking': { description: 'Parkplatz' } },
    exception_hours: [
      { title: 'Weihnachten', valid_from: '2026-12-25', valid_through: '2026-12-26' },
      { valid_from: '2027-01-02', valid_through: '2027-01-02' },
    ],
  };
  const strings: RecordLanguages = {
    language: 'de',
    localized: {
      en: {
        name: 'Market Mitte',
        amenities: { 'dev.ucp.amenity.wi_fi': { description: 'Free Wi-Fi' } },
        exception_hours: { '2026-12-25': { title: 'Christmas' } },
      },
      'fr-CA': { name: 'Marché Mitte' },
      fr: { amenities: { 'dev.ucp.amenity.wi_fi': { description: 'Wi-Fi gratuit' } } },
    },
  };

  it('answers each string in the best language that has it, and says which were used', () => {
    const en = localizeLocation(doc, strings, ['en']);
    expect(en.location.name).toBe('Market Mitte');
    expect(en.location.amenities?.['dev.ucp.amenity.wi_fi']?.description).toBe('Free Wi-Fi');
    expect(en.location.amenities?.['dev.ucp.amenity.parking']?.description).toBe('Parkplatz');
    expect(en.location.exception_hours?.[0]?.title).toBe('Christmas');
    expect(en.location.exception_hours?.[1]).toEqual({ valid_from: '2027-01-02', valid_through: '2027-01-02' });
    expect(en.languages).toEqual(['en', 'de']);

    const frCa = localizeLocation(doc, strings, ['fr-CA']);
    expect(frCa.location.name).toBe('Marché Mitte');
    expect(frCa.location.amenities?.['dev.ucp.amenity.wi_fi']?.description).toBe('Wi-Fi gratuit');
    expect(frCa.languages).toEqual(['fr-CA', 'fr', 'de']);
  });

  it('the record own language counts as available, and unmatched requests get the own strings', () => {
    expect(localizeLocation(doc, strings, ['de', 'en']).location).toEqual(doc);
    const ja = localizeLocation(doc, strings, ['ja']);
    expect(ja.location).toEqual(doc);
    expect(ja.languages).toEqual(['de']);
    expect(localizeLocation(doc, undefined, ['en']).languages).toEqual([]);
    expect(localizeLocation(doc, undefined, [], 'de').languages).toEqual(['de']);
  });

  it('never modifies the stored document', () => {
    const copy = structuredClone(doc);
    localizeLocation(doc, strings, ['en']);
    expect(doc).toEqual(copy);
  });
});
