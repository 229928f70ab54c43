import { describe, expect, it } from 'vitest';
import { SEARCH_CAPABILITY } from '../protocol/types.js';
import { createUnknownMemberCheck, UNKNOWN_FIELD_CODE, unknownRequestMembers } from './request-members.js';
import type { ExtensionSchemaDocument } from './request-members.js';

const EXTENSION = 'com.example.location.parking';
const EXTENSION_URL = 'https://example.com/ucp/parking.json';

/** An extension adding a request member `parking` to search (overview "Schema Composition"). */
const parkingExtension: ExtensionSchemaDocument = {
  name: EXTENSION,
  url: EXTENSION_URL,
  document: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: EXTENSION_URL,
    name: EXTENSION,
    $defs: {
      [SEARCH_CAPABILITY]: {
        $defs: {
          search_request: {
            type: 'object',
            properties: { parking: { type: 'object', properties: { max_fee: { type: 'number' } } } },
          },
        },
      },
    },
  },
};

const paths = (messages: readonly { path?: string }[]): (string | undefined)[] => messages.map((m) => m.path);

describe('unknown members of a Location request', () => {
  it('names a top-level member the search request does not declare, with what to send instead', () => {
    const [warning, ...rest] = unknownRequestMembers('search', { query: 'grocery', near: 'Los Angeles' }, []);
    expect(rest).toEqual([]);
    expect(warning).toMatchObject({ type: 'warning', code: UNKNOWN_FIELD_CODE, path: "$['near']" });
    expect(warning?.content).toContain('Ignored "near"');
    expect(warning?.content).toContain('"distance": {"center"');
    expect(warning?.content).toContain('Members of the search request: query, context, signals, distance, serves, filters, pagination.');
  });

  it('is silent for a request using only declared members, at every depth', () => {
    const request = {
      query: 'deli',
      distance: { center: { latitude: 37.79, longitude: -122.39 }, max: 5000 },
      serves: { address: { address_country: 'US', postal_code: '94105' } },
      filters: { hours: { open_at: '2026-11-30T10:00:00-08:00' }, amenities: ['dev.ucp.amenity.wi_fi'], items: ['sku-1'] },
      pagination: { limit: 5 },
      context: { address_country: 'US', intent: 'lunch' },
      signals: { 'dev.ucp.buyer_ip': '203.0.113.7' },
    };
    expect(unknownRequestMembers('search', request, [])).toEqual([]);
    expect(unknownRequestMembers('lookup', { ids: ['a'], filters: { amenities: [] }, context: {} }, [])).toEqual([]);
  });

  it('checks nested operands (distance, serves.address, pagination) and suggests near spellings', () => {
    const messages = unknownRequestMembers(
      'search',
      {
        distance: { center: { latitude: 1, longitude: 2, altitude: 3 }, max: 10, unit: 'km' },
        serves: { address: { address_country: 'US', address_locality: 'Los Angeles' } },
        pagination: { limt: 3 },
        limit: 3,
      },
      [],
    );
    expect(paths(messages)).toEqual([
      "$['distance']['center']['altitude']",
      "$['distance']['unit']",
      "$['serves']['address']['address_locality']",
      "$['pagination']['limt']",
      "$['limit']",
    ]);
    expect(messages[2]?.content).toContain('Members of "serves.address": address_country, address_region, postal_code.');
    expect(messages[3]?.content).toContain('Did you mean "pagination.limit"?');
    // Declared elsewhere in the request: the warning says where.
    expect(messages[4]?.content).toContain('Did you mean "pagination.limit"?');
  });

  it('leaves hint objects (context, signals) and serves target keys to their own rules', () => {
    // An unknown serves target is a request error elsewhere (R-S5); context never filters (R-S3).
    const request = { context: { mood: 'hungry' }, signals: { 'com.example.trust': 1 }, serves: { 'com.example.drone_zone': {} } };
    expect(unknownRequestMembers('search', request, [])).toEqual([]);
  });

  it('treats pagination as unknown in a lookup, which has none', () => {
    const messages = unknownRequestMembers('lookup', { ids: ['a'], pagination: { limit: 2 } }, []);
    expect(paths(messages)).toEqual(["$['pagination']"]);
    expect(messages[0]?.content).toContain('Members of the lookup request: ids, distance, serves, filters, context, signals.');
  });

  it('writes member names that need quoting as RFC 9535 normalized paths', () => {
    const messages = unknownRequestMembers('search', { "it's\n": 1 }, []);
    expect(paths(messages)).toEqual(["$['it\\'s\\n']"]);
  });

  it('caps the warnings of one answer and counts the rest', () => {
    const request = Object.fromEntries(Array.from({ length: 45 }, (_, i) => [`x${i}`, i]));
    const messages = unknownRequestMembers('search', request, []);
    expect(messages).toHaveLength(20);
    expect(messages[19]).toMatchObject({ type: 'warning', code: UNKNOWN_FIELD_CODE });
    expect(messages[19]?.content).toContain('26 more members');
  });

  it('does not warn about a member a negotiated extension declares, and does when it is not negotiated', () => {
    const check = createUnknownMemberCheck([parkingExtension]);
    const request = { query: 'garage', parking: { max_fee: 4, currency: 'USD' }, near: 'Oakland' };
    expect(paths(check('search', request, [EXTENSION]))).toEqual(["$['parking']['currency']", "$['near']"]);
    expect(paths(check('search', request, []))).toEqual(["$['parking']", "$['near']"]);
    // The extension adds nothing to lookup.
    expect(paths(check('lookup', { ids: ['a'], parking: {} }, [EXTENSION]))).toEqual(["$['parking']"]);
  });

  it('reports nothing when a negotiated extension schema is unknown to the Business (it cannot tell what it adds)', () => {
    expect(unknownRequestMembers('search', { near: 'x' }, ['org.other.location.thing'])).toEqual([]);
  });
});
