import { describe, expect, it } from 'vitest';
import { comparableUrl } from './comparable-url.js';

const PINNED = 'https://ucp.dev/2026-08-25/schemas/common/location_search.json';

describe('comparableUrl: which spellings name the same schema document (R-N2)', () => {
  it.each([
    'HTTPS://UCP.DEV/2026-08-25/schemas/common/location_search.json',
    'https://ucp.dev./2026-08-25/schemas/common/location_search.json',
    'https://UCP.DEV./2026-08-25/schemas/common/location_search.json',
    'https://ucp.dev:443/2026-08-25/schemas/common/location_search.json',
    'https://ucp.dev/2026-08-25/schemas/common/./location_search.json',
    'https://ucp.dev/2026-08-25/schemas/x/../common/location_search.json',
    'https://ucp.dev/2026-08-25/schemas/common/location_search.json#/$defs/search_request',
  ])('%s is the pinned document', (spelling) => {
    expect(comparableUrl(spelling)).toBe(comparableUrl(PINNED));
  });

  it.each([
    ['another path case', 'https://ucp.dev/2026-08-25/schemas/common/Location_Search.json'],
    ['a percent-encoded byte', 'https://ucp.dev/2026-08-25/schemas/common/%6Cocation_search.json'],
    ['a query', 'https://ucp.dev/2026-08-25/schemas/common/location_search.json?v=2'],
    ['another port', 'https://ucp.dev:8443/2026-08-25/schemas/common/location_search.json'],
    ['http', 'http://ucp.dev/2026-08-25/schemas/common/location_search.json'],
    ['two trailing dots', 'https://ucp.dev../2026-08-25/schemas/common/location_search.json'],
  ])('%s is another document', (_why, spelling) => {
    expect(comparableUrl(spelling)).not.toBe(comparableUrl(PINNED));
  });

  it('is undefined for text that is not an absolute URL', () => {
    expect(comparableUrl('location_search.json')).toBeUndefined();
  });
});
