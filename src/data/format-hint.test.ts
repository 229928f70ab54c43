import { describe, expect, it } from 'vitest';
import { formatHintOf } from './format-hint.js';

describe('formatHintOf: the --format a file read by its extension probably needs', () => {
  it('spots OpenStreetMap tags, a schema.org @context and a Business Profile header', () => {
    expect(formatHintOf('{"type":"FeatureCollection","features":[{"properties":{"addr:street":"X","opening_hours":"24/7"}}]}', 'geojson')).toMatchObject({
      format: 'osm',
      evidence: 'it has addr:* and opening_hours tags',
    });
    expect(formatHintOf('{"properties":{"name":"A","opening_hours":"Mo-Fr 09:00-17:00"}}', 'ndjson')?.format).toBe('osm');
    expect(formatHintOf('{"@context": "https://schema.org", "@type": "Store"}', 'geojson')?.format).toBe('jsonld');
    expect(formatHintOf('{"@context": {"@vocab": "http://schema.org/"}}', 'geojson')?.format).toBe('jsonld');
    expect(formatHintOf('\uFEFFStore code,Business name,Locality\nS1,Shop,Berlin\n', 'csv')).toMatchObject({ format: 'gbp' });
  });

  it('says nothing about our own formats, or when the format already matches', () => {
    expect(formatHintOf('{"type":"FeatureCollection","features":[{"properties":{"id":"a","name":"A","address":{"street_address":"1 Main St"}}}]}', 'geojson')).toBeUndefined();
    expect(formatHintOf('{"id":"a","name":"A","hours":[]}', 'ndjson')).toBeUndefined();
    expect(formatHintOf('id,name,timezone,hours\na,A,Europe/Berlin,\n', 'csv')).toBeUndefined();
    expect(formatHintOf('{"properties":{"addr:street":"X"}}', 'osm')).toBeUndefined();
    expect(formatHintOf('Store code,Business name\n', 'gbp')).toBeUndefined();
  });
});
