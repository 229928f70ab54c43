/**
 * GeoJSON (RFC 7946) FeatureCollection reading, streamed: the file is one JSON document, so
 * instead of parsing it whole, a small scanner walks the top-level object and hands out the text
 * of each element of `features` to JSON.parse separately. Memory stays at one feature.
 *
 * Mapping: `properties` is the record minus `geo`; a Point `geometry.coordinates` = [lon, lat]
 * becomes `geo`; `geometry: null` means no geo. A feature-level `id` is used as the record id
 * when `properties.id` is absent. Positions in messages are feature numbers (1-based).
 */
import { createReadStream } from 'node:fs';
import { describeType, isPlainObject } from './fields.js';
import type { FieldIssue } from './issues.js';

export type GeoJsonEntry =
  /** `feature` is 1-based. */
  | { feature: number; value: unknown }
  | { feature: number; issue: FieldIssue }
  /** A problem with the document around the features (physical line). */
  | { line: number; issue: FieldIssue };

const enum S {
  Start,
  KeyOrEnd,
  Key,
  Colon,
  Value,
  AfterMember,
  ElementOrEnd,
  Element,
  AfterElement,
  Done,
}

/** Captures the text of one JSON value; knows when it has ended (also used by jsonld-stream.ts). */
export class ValueCapture {
  parts: string[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** 'c' container, 's' string, 'p' primitive (number, true, false, null). */
  private kind: 'c' | 's' | 'p';

  constructor(first: string) {
    this.kind = first === '{' || first === '[' ? 'c' : first === '"' ? 's' : 'p';
    if (this.kind === 's') this.inString = true;
    if (this.kind === 'c') this.depth = 1;
  }

  /**
   * Consumes text[from..] (the first character of the value was already consumed).
   * Returns the index just past the value when it ended inside `text`, or -1 to continue.
   * A primitive ends *before* its delimiter, which is then left for the caller.
   */
  consume(text: string, from: number): number {
    let i = from;
    if (this.kind === 'p') {
      while (i < text.length && !/[\s,\]}]/.test(text.charAt(i))) i++;
      this.parts.push(text.slice(from, i));
      return i < text.length ? i : -1;
    }
    while (i < text.length) {
      if (this.inString) {
        // String contents are most of a feature's text: jump to the next quote natively.
        const q = text.indexOf('"', i);
        const end = q === -1 ? text.length : q;
        const escapedAtEnd = this.escapeStateAt(text, i, end);
        if (q === -1) {
          this.escaped = escapedAtEnd;
          break;
        }
        this.escaped = false;
        i = q + 1;
        if (escapedAtEnd) continue; // \" inside the string
        this.inString = false;
        if (this.kind === 's') {
          this.parts.push(text.slice(from, i));
          return i;
        }
        continue;
      }
      const c = text.charCodeAt(i);
      i++;
      if (c === 0x22 /* " */) this.inString = true;
      else if (c === 0x7b || c === 0x5b /* { [ */) this.depth++;
      else if (c === 0x7d || c === 0x5d /* } ] */) {
        this.depth--;
        if (this.depth === 0) {
          this.parts.push(text.slice(from, i));
          return i;
        }
      }
    }
    this.parts.push(text.slice(from));
    return -1;
  }

  /**
   * Whether the character at `end` is escaped, given string contents text[start..end) and the
   * escape state carried into `start`: only the run of backslashes just before `end` matters,
   * and each backslash flips the state.
   */
  private escapeStateAt(text: string, start: number, end: number): boolean {
    let k = end;
    while (k > start && text.charCodeAt(k - 1) === 0x5c) k--;
    const run = end - k;
    const carried = k === start ? this.escaped : false;
    return carried !== (run % 2 === 1);
  }

  text(first: string): string {
    return first + this.parts.join('');
  }
}

/** Incremental scanner of the FeatureCollection envelope. */
export class FeatureCollectionScanner {
  private state = S.Start;
  private line = 1;
  private capture: { first: string; value: ValueCapture; isKey: boolean } | null = null;
  private key = '';
  private featureCount = 0;
  private sawFeatures = false;
  private type: unknown = undefined;
  private failed = false;

  feed(chunk: string, out: GeoJsonEntry[]): void {
    let i = 0;
    if (this.state === S.Start && this.line === 1 && chunk.startsWith('\uFEFF')) i = 1;
    while (i < chunk.length && !this.failed) {
      if (this.capture !== null) {
        const end = this.capture.value.consume(chunk, i);
        this.countLines(chunk, i, end === -1 ? chunk.length : end);
        if (end === -1) return;
        i = end;
        this.finishCapture(out);
        continue;
      }
      const c = chunk.charAt(i);
      if (c === '\n') this.line++;
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
        i++;
        continue;
      }
      i++;
      this.step(c, out);
    }
  }

  end(out: GeoJsonEntry[]): void {
    if (this.failed) return;
    if (this.state !== S.Done) {
      this.fail(this.state === S.Start ? 'the file is empty; expected a GeoJSON FeatureCollection object' : 'the file ends before the FeatureCollection is closed (truncated?)', out);
      return;
    }
    if (this.type !== 'FeatureCollection') {
      out.push({ line: 0, issue: { field: 'type', message: `the top-level "type" must be "FeatureCollection", got ${this.type === undefined ? 'no type' : describeType(this.type)}` } });
    }
    if (!this.sawFeatures) out.push({ line: 0, issue: { field: 'features', message: 'the FeatureCollection has no "features" array' } });
  }

  /** Memo of the first '\n' at or after `nlFrom` in `nlText` (Infinity: none), so a chunk without line breaks is searched once, not once per feature. */
  private nlText = '';
  private nlFrom = 0;
  private nlAt = -1;

  private nextNewline(text: string, from: number): number {
    if (text !== this.nlText || from < this.nlFrom || from > this.nlAt) {
      const k = text.indexOf('\n', from);
      this.nlText = text;
      this.nlFrom = from;
      this.nlAt = k === -1 ? Infinity : k;
    }
    return this.nlAt;
  }

  private countLines(text: string, from: number, to: number): void {
    for (let k = this.nextNewline(text, from); k < to; k = this.nextNewline(text, k + 1)) this.line++;
  }

  private fail(message: string, out: GeoJsonEntry[]): void {
    this.failed = true;
    out.push({ line: this.line, issue: { field: '', message } });
  }

  private unexpected(c: string, expected: string, out: GeoJsonEntry[]): void {
    this.fail(`invalid JSON: unexpected ${JSON.stringify(c)}, expected ${expected}`, out);
  }

  private startCapture(c: string, isKey: boolean): void {
    this.capture = { first: c, value: new ValueCapture(c), isKey };
  }

  private step(c: string, out: GeoJsonEntry[]): void {
    switch (this.state) {
      case S.Start:
        if (c === '{') this.state = S.KeyOrEnd;
        else this.unexpected(c, 'a GeoJSON FeatureCollection object "{"', out);
        return;
      case S.KeyOrEnd:
      case S.Key:
        if (c === '"') {
          this.startCapture(c, true);
          this.state = S.Colon;
        } else if (c === '}' && this.state === S.KeyOrEnd) this.state = S.Done;
        else this.unexpected(c, 'a member name in double quotes', out);
        return;
      case S.Colon:
        if (c === ':') this.state = S.Value;
        else this.unexpected(c, '":"', out);
        return;
      case S.Value:
        if (this.key === 'features') {
          if (this.sawFeatures) {
            this.fail('"features" appears twice', out);
          } else if (c === '[') {
            this.sawFeatures = true;
            this.state = S.ElementOrEnd;
          } else {
            this.fail(`"features" must be an array, found ${JSON.stringify(c)}`, out);
          }
          return;
        }
        this.startCapture(c, false);
        this.state = S.AfterMember;
        return;
      case S.AfterMember:
        if (c === ',') this.state = S.Key;
        else if (c === '}') this.state = S.Done;
        else this.unexpected(c, '"," or "}"', out);
        return;
      case S.ElementOrEnd:
      case S.Element:
        if (c === ']' && this.state === S.ElementOrEnd) {
          this.state = S.AfterMember;
          return;
        }
        if (c === ']' || c === ',') {
          this.unexpected(c, `feature ${this.featureCount + 1}`, out);
          return;
        }
        this.startCapture(c, false);
        this.state = S.Element;
        return;
      case S.AfterElement:
        if (c === ',') this.state = S.Element;
        else if (c === ']') this.state = S.AfterMember;
        else this.unexpected(c, '"," or "]" after a feature', out);
        return;
      case S.Done:
        this.unexpected(c, 'the end of the file after the FeatureCollection', out);
        return;
    }
  }

  private finishCapture(out: GeoJsonEntry[]): void {
    const cap = this.capture;
    if (cap === null) return;
    this.capture = null;
    const text = cap.value.text(cap.first);
    if (cap.isKey) {
      // A captured key is a JSON string token; its text stands in should it fail to parse.
      const key = parseQuiet(text);
      this.key = typeof key === 'string' ? key : text;
      return;
    }
    if (this.state === S.Element) {
      this.featureCount += 1;
      const feature = this.featureCount;
      this.state = S.AfterElement;
      try {
        out.push({ feature, value: JSON.parse(text) });
      } catch (error) {
        out.push({ feature, issue: { field: '', message: `invalid JSON in feature ${feature}: ${error instanceof Error ? error.message : String(error)}` } });
      }
      return;
    }
    // Another top-level member (type, bbox, name, …): only `type` matters, but all must be JSON.
    try {
      const value: unknown = JSON.parse(text);
      if (this.key === 'type') this.type = value;
    } catch (error) {
      this.fail(`invalid JSON in the top-level member ${JSON.stringify(this.key)}: ${error instanceof Error ? error.message : String(error)}`, out);
    }
  }
}

function parseQuiet(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function* readGeoJson(path: string): AsyncGenerator<GeoJsonEntry> {
  const scanner = new FeatureCollectionScanner();
  const out: GeoJsonEntry[] = [];
  const input = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  try {
    for await (const chunk of input) {
      // The stream decodes UTF-8, so every chunk is a string.
      scanner.feed(String(chunk), out);
      yield* out;
      out.length = 0;
    }
  } finally {
    input.destroy();
  }
  scanner.end(out);
  yield* out;
}

/** Scans a whole GeoJSON string (tests, small inputs). */
export function scanGeoJson(text: string): GeoJsonEntry[] {
  const scanner = new FeatureCollectionScanner();
  const out: GeoJsonEntry[] = [];
  scanner.feed(text, out);
  scanner.end(out);
  return out;
}

/**
 * Turns one parsed feature into a raw record (validated afterwards like an NDJSON line).
 * Issues here concern the GeoJSON envelope only.
 */
export function featureToRaw(feature: unknown): { raw?: Record<string, unknown>; issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  if (!isPlainObject(feature) || feature['type'] !== 'Feature') {
    return { issues: [{ field: '', message: `each element of "features" must be a GeoJSON Feature object ({"type": "Feature", …}), got ${isPlainObject(feature) ? `type ${describeType(feature['type'])}` : describeType(feature)}` }] };
  }
  const props = feature['properties'];
  if (!isPlainObject(props)) {
    return { issues: [{ field: 'properties', message: `properties must be an object holding the location record, got ${describeType(props)}` }] };
  }
  const raw: Record<string, unknown> = { ...props };
  if ('geo' in props) issues.push({ field: 'properties.geo', message: 'properties must not hold "geo"; the location comes from geometry.coordinates [longitude, latitude]' });
  const fid = feature['id'];
  if (fid !== undefined) {
    if (props['id'] === undefined) raw['id'] = typeof fid === 'number' ? String(fid) : fid;
    else if (props['id'] !== fid) issues.push({ field: 'id', message: `the feature id ${JSON.stringify(fid)} differs from properties.id ${JSON.stringify(props['id'])}; keep one of them` });
  }
  const geometry = feature['geometry'];
  if (geometry === null || geometry === undefined) {
    delete raw['geo'];
    return { raw, issues };
  }
  if (!isPlainObject(geometry) || geometry['type'] !== 'Point') {
    issues.push({ field: 'geometry', message: `geometry must be a Point (or null for no location), got ${isPlainObject(geometry) ? `type ${describeType(geometry['type'])}` : describeType(geometry)}` });
    return { raw, issues };
  }
  const coords = geometry['coordinates'];
  if (!Array.isArray(coords) || coords.length < 2 || coords.length > 3) {
    issues.push({ field: 'geometry.coordinates', message: `geometry.coordinates must be [longitude, latitude] (optionally with altitude), got ${describeType(coords)}` });
    return { raw, issues };
  }
  // Altitude (a third position element) is allowed by RFC 7946 but has no place in a Location.
  const position: unknown[] = coords;
  const [longitude, latitude] = position;
  raw['geo'] = { latitude, longitude };
  return { raw, issues };
}

/** Record paths of `geo` are shown as the GeoJSON positions they came from. */
export function geoJsonFieldOf(field: string): string {
  if (field.startsWith('geo.latitude')) return 'geometry.coordinates[1]';
  if (field.startsWith('geo.longitude')) return 'geometry.coordinates[0]';
  if (field === 'geo') return 'geometry.coordinates';
  return field;
}
