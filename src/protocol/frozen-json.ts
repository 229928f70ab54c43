/**
 * JSON text of values that can no longer change, kept with the value: an MCP answer carries its
 * payload twice (R-M2: `structuredContent`, and the same JSON as the string `content[0].text`),
 * and most of that payload is Location documents that an in-memory index serves again and again
 * (hours, closures and amenity sets shared by a whole chain; popular Locations page after page).
 * Serialising and string-escaping those documents on every call was the largest per-call cost of
 * MCP over HTTP after the search itself.
 *
 * A value is *sealed* by its owner (deep-frozen and registered here) once nothing may change it;
 * `jsonTexts` then serialises it at most once, and composes any other value from the texts of
 * the sealed values inside it. The composition follows JSON.stringify exactly (member order,
 * omitted `undefined` members, `null` for `undefined` array elements), and anything that is not a
 * plain object or array (`toJSON`, class instances, boxed primitives) is handed to JSON.stringify
 * itself — so the text is byte-for-byte JSON.stringify's (frozen-json.test.ts holds it to that).
 *
 * The escaped form is the JSON text as the body of a JSON string literal, without the quotes:
 * escaping is character by character and every boundary between composed pieces is an ASCII
 * delimiter, so the escaped pieces joined are the escaped whole.
 *
 * Memory: texts are held in a WeakMap keyed by the sealed value, so they live exactly as long as
 * their value (the index's parsed-document cache bounds how many documents are alive).
 */
import { deepFreeze } from './schema-walk.js';

/** A value's JSON text, and that text escaped as the body of a JSON string. */
export interface JsonTexts {
  json: string;
  escaped: string;
}

const sealed = new WeakSet<object>();
const texts = new WeakMap<object, JsonTexts>();

/** Levels below the top at which values are composed from their members rather than stringified. */
const COMPOSE_DEPTH = 3;

/**
 * Deep-freezes `value` and records that its JSON text may be kept. Only for values parsed from
 * JSON or built like them (plain objects, arrays, primitives).
 */
export function sealJson<T>(value: T): T {
  deepFreeze(value);
  if (typeof value === 'object' && value !== null) sealed.add(value);
  return value;
}

/** Whether `value` was sealed by `sealJson`. */
export function isSealed(value: unknown): boolean {
  return typeof value === 'object' && value !== null && sealed.has(value);
}

/** The body of the JSON string literal holding `text`. */
export function escapeJsonText(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/**
 * JSON.stringify(value) and its escaped form; undefined where JSON.stringify gives undefined
 * (undefined, a function, a symbol).
 */
export function jsonTexts(value: unknown): JsonTexts | undefined {
  const parts: string[] = [];
  const escaped: string[] = [];
  if (!write(value, COMPOSE_DEPTH, parts, escaped)) return undefined;
  return { json: parts.join(''), escaped: escaped.join('') };
}

function isPlainObject(v: object): v is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && typeof Reflect.get(v, 'toJSON') !== 'function';
}

/** JSON.stringify as it really is: undefined for what has no JSON text (its declared type says string). */
function stringify(value: unknown): string | undefined {
  const text: string | undefined = JSON.stringify(value);
  return text;
}

function omitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/** Appends the texts of `value`; false (nothing appended) when JSON.stringify would omit it. */
function write(value: unknown, depth: number, parts: string[], escaped: string[]): boolean {
  if (typeof value !== 'object' || value === null) {
    const json = stringify(value);
    if (json === undefined) return false;
    parts.push(json);
    escaped.push(typeof value === 'string' ? escapeJsonText(json) : json);
    return true;
  }
  if (sealed.has(value)) {
    let t = texts.get(value);
    if (t === undefined) {
      // Composed too: a document's sealed parts (a chain's hours) already have their texts.
      const p: string[] = [];
      const e: string[] = [];
      compose(value, COMPOSE_DEPTH, p, e);
      t = { json: p.join(''), escaped: e.join('') };
      texts.set(value, t);
    }
    parts.push(t.json);
    escaped.push(t.escaped);
    return true;
  }
  if (depth > 0 && (Array.isArray(value) || isPlainObject(value))) {
    compose(value, depth, parts, escaped);
    return true;
  }
  const json = stringify(value);
  if (json === undefined) return false;
  parts.push(json);
  escaped.push(escapeJsonText(json));
  return true;
}

/** An array or plain object member by member, as JSON.stringify writes it. */
function compose(value: object, depth: number, parts: string[], escaped: string[]): void {
  if (!Array.isArray(value) && !isPlainObject(value)) {
    const json = JSON.stringify(value);
    parts.push(json);
    escaped.push(escapeJsonText(json));
    return;
  }
  if (Array.isArray(value)) {
    parts.push('[');
    escaped.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) {
        parts.push(',');
        escaped.push(',');
      }
      const v: unknown = value[i];
      if (omitted(v) || !write(v, depth - 1, parts, escaped)) {
        parts.push('null');
        escaped.push('null');
      }
    }
    parts.push(']');
    escaped.push(']');
    return;
  }
  parts.push('{');
  escaped.push('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (omitted(v)) continue;
    const name = JSON.stringify(key);
    const lead = first ? name : `,${name}`;
    const at = parts.length;
    parts.push(`${lead}:`);
    escaped.push(`${escapeJsonText(lead)}:`);
    if (write(v, depth - 1, parts, escaped)) first = false;
    else {
      // A member whose toJSON gives undefined is left out, as JSON.stringify leaves it out.
      parts.length = at;
      escaped.length = at;
    }
  }
  parts.push('}');
  escaped.push('}');
}
