/**
 * schema.org `LocalBusiness` JSON-LD → location records (`import --format jsonld`).
 *
 * A file is one JSON document (`.jsonld`, `.json`), read as a stream (jsonld-stream.ts), or an HTML page whose
 * `<script type="application/ld+json">` blocks are read in order (found with htmlparser2). The
 * document's nodes are the objects at its top level, inside top-level arrays and inside `@graph`;
 * they are numbered from 1 in document order across the file, and problems are reported by that
 * number (`stores.jsonld node 3 geo.latitude: …`). Nodes whose `@type` is not a LocalBusiness type
 * are skipped and counted in one warning.
 *
 * Property names are read as the schema.org context defines them; documents are not expanded
 * with a JSON-LD processor (that would fetch remote contexts, which an import never does).
 * Mapping, field by field, in docs/data-format.md.
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { Parser } from 'htmlparser2';
import { resolveCountry } from '../domain/locality-names.js';
import { dropScheduleWithoutZoneSource } from './timezone-derivation.js';
import { describeType, isPlainObject } from './fields.js';
import type { FieldIssue, RawEntry } from './issues.js';
import { amenitiesOf } from './schema-org-amenities.js';
import { localName, scheduleOf } from './schema-org-hours.js';
import { isLocalBusinessType } from './schema-org-types.js';
import { JsonLdScanner, type JsonLdPiece } from './jsonld-stream.js';

/** The text of every `<script type="application/ld+json">` block, with the line it starts on. */
export function ldJsonScripts(html: string): { text: string; line: number }[] {
  const scripts: { text: string; line: number }[] = [];
  let current: { parts: string[]; start: number } | null = null;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const type = (attributes['type'] ?? '').trim().toLowerCase();
        if (name === 'script' && type === 'application/ld+json') current = { parts: [], start: parser.startIndex };
      },
      ontext(text) {
        current?.parts.push(text);
      },
      onclosetag(name) {
        if (name !== 'script' || current === null) return;
        scripts.push({ text: current.parts.join(''), line: lineAt(html, current.start) });
        current = null;
      },
    },
    { decodeEntities: false },
  );
  parser.write(html);
  parser.end();
  return scripts;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The nodes of a parsed document: top-level objects, array elements and `@graph` members, in order. */
function collectNodes(value: unknown, out: Record<string, unknown>[]): void {
  if (Array.isArray(value)) {
    for (const v of value) collectNodes(v, out);
  } else if (isPlainObject(value)) {
    if (Array.isArray(value['@graph']) || isPlainObject(value['@graph'])) collectNodes(value['@graph'], out);
    else out.push(value);
  }
}

function typesOf(node: Record<string, unknown>): string[] {
  const t = node['@type'];
  return (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === 'string').map((x) => localName(x.trim()));
}

/** A single value, or the first of a list (schema.org allows repeating most properties). */
function first(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const list: readonly unknown[] = value;
  return list[0];
}

/** Plain text of a schema.org Text value: a string, a `{"@value": …}` object, or the first of a list. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (isPlainObject(value)) return textOf(value['@value']);
  if (Array.isArray(value)) return textOf(value[0]);
  return undefined;
}

/** The record id: `branchCode`, else `identifier` (text or PropertyValue), else `@id`. */
function idOf(node: Record<string, unknown>): string | undefined {
  const branch = textOf(node['branchCode']);
  if (branch !== undefined) return branch;
  const identifier = first(node['identifier']);
  const fromIdentifier = isPlainObject(identifier) && identifier['@value'] === undefined ? textOf(identifier['value']) : textOf(identifier);
  if (fromIdentifier !== undefined) return fromIdentifier;
  // None: record validation reports the missing id, under jsonLdFieldOf's name for it.
  return textOf(node['@id']);
}

const ADDRESS_PROPERTIES = {
  streetAddress: 'street_address',
  postOfficeBoxNumber: 'extended_address',
  addressLocality: 'address_locality',
  addressRegion: 'address_region',
  postalCode: 'postal_code',
} as const;

function addressOf(node: Record<string, unknown>, issues: FieldIssue[], warnings: FieldIssue[]): Record<string, string> | undefined {
  const value = first(node['address']);
  const out: Record<string, string> = {};
  if (Array.isArray(node['address']) && node['address'].length > 1) warnings.push({ field: 'address', message: `${node['address'].length} addresses given; the first is used` });
  if (typeof value === 'string') {
    // A one-line address cannot be split reliably into its parts; it is kept whole.
    if (value.trim() !== '') out['street_address'] = value.trim();
  } else if (isPlainObject(value)) {
    for (const [property, field] of Object.entries(ADDRESS_PROPERTIES)) {
      const text = textOf(value[property]);
      if (text !== undefined) out[field] = text;
    }
    const country = value['addressCountry'];
    const countryText = isPlainObject(country) ? (textOf(country['identifier']) ?? textOf(country['name'])) : textOf(country);
    if (countryText !== undefined) {
      const code = resolveCountry(countryText);
      if (code === null) warnings.push({ field: 'address.addressCountry', message: `${JSON.stringify(countryText)} is no ISO 3166 country code or name known here; kept as written` });
      out['address_country'] = code ?? countryText;
    }
  } else if (value !== undefined) {
    issues.push({ field: 'address', message: `must be a PostalAddress object or text, got ${describeType(value)}` });
  }
  const phone = textOf(node['telephone']);
  if (phone !== undefined) out['phone_number'] = phone;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A coordinate given as a number or as numeric text (both are common in the wild). */
function coordinate(value: unknown, field: string, issues: FieldIssue[]): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(value)) return Number(value);
  issues.push({ field, message: `must be a decimal number of degrees, got ${describeType(value)}` });
  return undefined;
}

/** GeoCoordinates from `geo`, or `latitude`/`longitude` on the node itself (schema.org Place allows both). */
function geoOf(node: Record<string, unknown>, issues: FieldIssue[]): { latitude: number; longitude: number } | undefined {
  const geo = first(node['geo']);
  const holder = geo === undefined ? node : geo;
  const prefix = geo === undefined ? '' : 'geo.';
  if (!isPlainObject(holder)) {
    issues.push({ field: 'geo', message: `must be a GeoCoordinates object {"latitude": …, "longitude": …}, got ${describeType(geo)}` });
    return undefined;
  }
  if (holder['latitude'] === undefined && holder['longitude'] === undefined) {
    if (geo !== undefined) issues.push({ field: 'geo', message: 'has neither latitude nor longitude' });
    return undefined;
  }
  const latitude = coordinate(holder['latitude'], `${prefix}latitude`, issues);
  const longitude = coordinate(holder['longitude'], `${prefix}longitude`, issues);
  return latitude === undefined || longitude === undefined ? undefined : { latitude, longitude };
}

/** One LocalBusiness node → the raw record to validate, with problems in schema.org terms. */
export function nodeToRaw(
  node: Record<string, unknown>,
  amenityNamespace?: string,
): { raw?: Record<string, unknown>; issues: FieldIssue[]; warnings: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const warnings: FieldIssue[] = [];
  const raw: Record<string, unknown> = {};
  const id = idOf(node);
  if (id !== undefined) raw['id'] = id;
  const name = textOf(node['name']);
  if (name !== undefined) raw['name'] = name;
  const address = addressOf(node, issues, warnings);
  if (address !== undefined) raw['address'] = address;
  const geo = geoOf(node, issues);
  if (geo !== undefined) raw['geo'] = geo;
  const schedule = scheduleOf(node);
  issues.push(...schedule.issues);
  warnings.push(...schedule.warnings);
  if (schedule.hours !== undefined) raw['hours'] = schedule.hours;
  if (schedule.exception_hours !== undefined) raw['exception_hours'] = schedule.exception_hours;
  const amenities = amenitiesOf(node['amenityFeature'], issues, warnings, amenityNamespace);
  if (amenities !== undefined) raw['amenities'] = amenities;
  // The zone itself is derived from geo by the shared pipeline (timezone-derivation.ts).
  dropScheduleWithoutZoneSource(
    raw,
    { hours: node['openingHoursSpecification'] !== undefined ? 'openingHoursSpecification' : 'openingHours', remedy: 'add geo (GeoCoordinates with latitude and longitude)' },
    node['geo'] !== undefined || node['latitude'] !== undefined || node['longitude'] !== undefined,
    issues,
  );
  return { raw, issues, warnings };
}

/** Record field paths as a JSON-LD author knows them (for problems found by record validation). */
export function jsonLdFieldOf(field: string): string {
  if (field === 'id') return 'branchCode (or identifier, or @id)';
  if (field === 'timezone') return 'geo (the time zone derived from it)';
  if (field.startsWith('address.phone_number')) return 'telephone';
  if (field.startsWith('address.address_country')) return 'address.addressCountry';
  for (const [property, name] of Object.entries(ADDRESS_PROPERTIES)) if (field.startsWith(`address.${name}`)) return `address.${property}`;
  if (field.startsWith('hours')) return 'openingHoursSpecification (weekly entries)';
  if (field.startsWith('exception_hours')) return 'openingHoursSpecification (entries with validFrom/validThrough)';
  if (field.startsWith('amenities')) return 'amenityFeature';
  return field;
}

/** The documents of a file as pieces: an HTML page's script blocks (pages are small), a JSON-LD file streamed. */
async function* documentPieces(file: string, html: boolean): AsyncGenerator<{ line: number; pieces: JsonLdPiece[]; noScripts?: true }> {
  if (html) {
    const text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
    const blocks = ldJsonScripts(text);
    if (blocks.length === 0) yield { line: 1, pieces: [], noScripts: true };
    for (const block of blocks) {
      const scanner = new JsonLdScanner();
      const pieces: JsonLdPiece[] = [];
      scanner.feed(block.text, pieces);
      scanner.end(pieces);
      yield { line: block.line, pieces };
    }
    return;
  }
  const scanner = new JsonLdScanner();
  const input = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  try {
    for await (const chunk of input) {
      const pieces: JsonLdPiece[] = [];
      // The stream decodes UTF-8, so every chunk is a string.
      scanner.feed(String(chunk), pieces);
      yield { line: 1, pieces };
    }
  } finally {
    input.destroy();
  }
  const last: JsonLdPiece[] = [];
  scanner.end(last);
  yield { line: 1, pieces: last };
}

/** Raw entries of one JSON-LD or HTML file, one per LocalBusiness node, then one for skipped nodes. */
export async function* jsonLdEntries(file: string, amenityNamespace?: string): AsyncGenerator<RawEntry> {
  const html = ['.html', '.htm'].includes(extname(file).toLowerCase());
  let number = 0;
  const skipped = new Map<string, number>();
  for await (const { line, pieces, noScripts } of documentPieces(file, html)) {
    if (noScripts === true) {
      yield { pos: { file, line }, issues: [], warnings: [{ field: '', message: 'the page has no <script type="application/ld+json"> block' }], envelope: true };
      return;
    }
    for (const piece of pieces) {
      if ('error' in piece) {
        // In a script block, the position is the block's own; its start line says where it is.
        const within = html ? ` (the script block starting on line ${line})` : '';
        yield { pos: { file, line }, issues: [{ field: '', message: `${piece.error}${within}` }], envelope: true };
        continue;
      }
      const nodes: Record<string, unknown>[] = [];
      collectNodes(piece.value, nodes);
      for (const node of nodes) {
        number += 1;
        const types = typesOf(node);
        if (!types.some(isLocalBusinessType)) {
          const label = types.join('+') || '(no @type)';
          skipped.set(label, (skipped.get(label) ?? 0) + 1);
          continue;
        }
        const { raw, issues, warnings } = nodeToRaw(node, amenityNamespace);
        yield { pos: { file, line: number, unit: 'node' }, raw, issues, warnings };
      }
    }
  }
  if (skipped.size > 0) {
    const total = [...skipped.values()].reduce((a, b) => a + b, 0);
    const kinds = [...skipped].map(([t, n]) => `${t} ×${n}`).join(', ');
    yield { pos: { file, line: 0 }, issues: [], warnings: [{ field: '@type', message: `${total} node(s) skipped, not a LocalBusiness type: ${kinds}` }], envelope: true };
  }
}
