/**
 * The localisation part of the store contract (R-C3): each store keeps a record's language and
 * translations beside its document, and search and lookup answer in the requested language with
 * the same Locations, in the same order, on every page. Fixture: loc_downtown (English, with
 * German and French amenity text and a Canadian French name) and loc_berlin (German, with an
 * English name and exception title).
 */
import { describe, expect } from 'vitest';
import type { Location } from '../../src/domain/location.js';
import type { PresentationOptions, SearchRequest, SearchResult } from '../../src/domain/requests.js';
import type { LocationService } from '../../src/service.js';
import { AMENITY, GEO } from './fixture.js';

/** The members a public Location may carry (seed 000); anything else would be a leak. */
const PUBLIC_MEMBERS = new Set(['id', 'name', 'address', 'geo', 'amenities', 'hours', 'exception_hours', 'timezone', 'inputs']);

function byId<T extends Location>(locations: readonly T[], id: string): T {
  const found = locations.find((l) => l.id === id);
  if (found === undefined) throw new Error(`${id} is not in the answer`);
  return found;
}

const wifi = (l: Location): string | undefined => l.amenities?.[AMENITY.wifi]?.description;

export function localizationContract(service: () => LocationService, test: (name: string, fn: () => Promise<void>) => void): void {
  describe('localization (R-C3)', () => {
    const both = { ids: ['loc_downtown', 'loc_berlin'] };

    test('lookup answers each string in context.language where the record has it, else its own (R-C3)', async () => {
      const de = await service().lookup({ ...both, context: { language: 'de' } });
      expect(byId(de.locations, 'loc_downtown')).toMatchObject({ name: 'Downtown Store' });
      expect(wifi(byId(de.locations, 'loc_downtown'))).toBe('Kostenloses WLAN');
      expect(byId(de.locations, 'loc_berlin')).toMatchObject({ name: 'Berlin Späti', exception_hours: [{ title: 'Weihnachten' }] });
      expect(de.contentLanguage).toEqual(['en', 'de']);

      const en = await service().lookup({ ...both, context: { language: 'en-US' } });
      expect(byId(en.locations, 'loc_berlin')).toMatchObject({ name: 'Berlin Corner Shop', exception_hours: [{ title: 'Christmas Day' }] });
      expect(wifi(byId(en.locations, 'loc_downtown'))).toBe('Free Wi-Fi');
      expect(en.contentLanguage).toEqual(['en']);
    });

    test('RFC 4647 lookup: fr-CA takes the fr-CA name and falls back to fr for the amenity (R-C3)', async () => {
      const r = await service().lookup({ ids: ['loc_downtown'], context: { language: 'fr-CA' } });
      expect(r.locations[0]).toMatchObject({ name: 'Magasin du centre-ville' });
      expect(wifi(r.locations[0] as Location)).toBe('Wi-Fi gratuit');
      expect(r.contentLanguage).toEqual(['fr-CA', 'fr']);
    });

    test('Accept-Language applies when context.language is absent or unreadable, never over it (R-C3)', async () => {
      const header: PresentationOptions = { acceptLanguage: 'ja, en-GB;q=0.8, de;q=0.5' };
      const viaHeader = await service().lookup({ ids: ['loc_berlin'] }, header);
      expect(viaHeader.locations[0]).toMatchObject({ name: 'Berlin Corner Shop' });
      const unreadable = await service().lookup({ ids: ['loc_berlin'], context: { language: 'de_DE' } }, header);
      expect(unreadable.locations[0]).toMatchObject({ name: 'Berlin Corner Shop' });
      const overridden = await service().lookup({ ids: ['loc_berlin'], context: { language: 'de' } }, header);
      expect(overridden.locations[0]).toMatchObject({ name: 'Berlin Späti' });
      expect(overridden.contentLanguage).toEqual(['de']);
    });

    test('search answers in the language too, and no language data leaks into a Location (R-C3, R-S11)', async () => {
      const r = await service().search({ query: 'Berlin', context: { language: 'en' } });
      expect(r.locations.map((l) => l.name)).toEqual(['Berlin Corner Shop']);
      const near = await service().search({ distance: { center: GEO.downtown, max: 50_000 }, context: { language: 'de' } });
      expect(wifi(byId(near.locations, 'loc_downtown'))).toBe('Kostenloses WLAN');
      for (const l of [...r.locations, ...near.locations]) {
        expect(Object.keys(l).filter((k) => !PUBLIC_MEMBERS.has(k))).toEqual([]);
      }
      const plain = await service().lookup(both);
      expect(byId(plain.locations, 'loc_berlin').name).toBe('Berlin Späti');
      expect(plain.contentLanguage).toEqual(['en', 'de']);
    });

    test('a language never changes the set or its order, on any page; a cursor continues in the next page language (R-C3, R-S3)', async () => {
      const request: SearchRequest = { query: 'store market shop' };
      const walk = async (context: Record<string, unknown> | undefined, headers: readonly string[]): Promise<string[]> => {
        const out: string[] = [];
        let cursor: string | undefined;
        for (let i = 0; i < 100; i++) {
          const page: SearchResult = await service().search(
            {
              ...request,
              ...(context === undefined ? {} : { context }),
              pagination: cursor === undefined ? { limit: 2 } : { limit: 2, cursor },
            },
            { acceptLanguage: headers[i % headers.length] as string },
          );
          out.push(...page.locations.map((l) => l.id));
          cursor = page.pagination.cursor;
          if (cursor === undefined) return out;
        }
        throw new Error('pagination did not terminate');
      };
      const plain = await walk(undefined, ['']);
      expect(plain.length).toBeGreaterThan(4);
      expect(await walk({ language: 'de' }, [''])).toEqual(plain);
      expect(await walk(undefined, ['de', 'en', 'fr-CA'])).toEqual(plain);
    });
  });
}
