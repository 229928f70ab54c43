/**
 * Structural helpers for JSON Schema documents (draft 2020-12): which members hold subschemas,
 * copying transforms that never touch data-valued keywords (`const`, `enum`, `default`,
 * `examples` may contain objects that merely look like schemas), JSON Pointer and `$ref`
 * resolution. Pure; no I/O.
 */

/** A JSON Schema object node. Boolean schemas are represented by `true`/`false` where allowed. */
export type JsonSchema = { [keyword: string]: unknown };

/** Keywords whose value is one subschema. */
const SINGLE = [
  'items',
  'additionalItems',
  'additionalProperties',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contentSchema',
] as const;
/** Keywords whose value is an array of subschemas. */
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
/** Keywords whose value maps names to subschemas. */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;

export function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Calls `visit` for every direct object subschema of `node`, with the keyword path leading to it. */
export function forEachChild(node: JsonSchema, visit: (child: JsonSchema, path: readonly string[]) => void): void {
  for (const kw of SINGLE) {
    const v = node[kw];
    if (isSchemaObject(v)) visit(v, [kw]);
    // draft-07 tuple form of `items`
    else if (kw === 'items' && Array.isArray(v)) v.forEach((c, i) => isSchemaObject(c) && visit(c, [kw, String(i)]));
  }
  for (const kw of LIST) {
    const v = node[kw];
    if (Array.isArray(v)) v.forEach((c, i) => isSchemaObject(c) && visit(c, [kw, String(i)]));
  }
  for (const kw of MAP) {
    const v = node[kw];
    if (isSchemaObject(v)) for (const [k, c] of Object.entries(v)) if (isSchemaObject(c)) visit(c, [kw, k]);
  }
}

/**
 * Depth-first visit of every object node of a schema document, with the base URI in force at
 * that node (a nested `$id` re-bases its subtree, as 2020-12 specifies).
 */
export function walkSchema(root: JsonSchema, baseUri: string, visit: (node: JsonSchema, base: string) => void): void {
  const go = (node: JsonSchema, base: string): void => {
    const own = typeof node.$id === 'string' ? resolveUri(node.$id, base) : base;
    visit(node, own);
    forEachChild(node, (child) => go(child, own));
  };
  go(root, baseUri);
}

/**
 * Copies a schema tree, letting `hook` rewrite each object node after its children were copied
 * (post-order). Data-valued keywords are shared, not copied: nothing here mutates them.
 */
export function mapSchema(node: JsonSchema, baseUri: string, hook: (copy: JsonSchema, base: string) => JsonSchema): JsonSchema {
  const base = typeof node.$id === 'string' ? resolveUri(node.$id, baseUri) : baseUri;
  const copy: JsonSchema = { ...node };
  const sub = (v: unknown): unknown => (isSchemaObject(v) ? mapSchema(v, base, hook) : v);
  for (const kw of SINGLE) {
    if (!(kw in node)) continue;
    const v = node[kw];
    copy[kw] = kw === 'items' && Array.isArray(v) ? v.map(sub) : sub(v);
  }
  for (const kw of LIST) {
    const v = node[kw];
    if (Array.isArray(v)) copy[kw] = v.map(sub);
  }
  for (const kw of MAP) {
    const v = node[kw];
    if (isSchemaObject(v)) copy[kw] = Object.fromEntries(Object.entries(v).map(([k, c]) => [k, sub(c)]));
  }
  return hook(copy, base);
}

/** Resolves `ref` against `base` (RFC 3986); `urn:`-style bases are supported for absolute refs only. */
export function resolveUri(ref: string, base: string): string {
  try {
    return new URL(ref, base).href;
  } catch {
    return ref;
  }
}

/** Splits an absolute URI into the document part and the decoded fragment ('' when absent). */
export function splitFragment(uri: string): { document: string; fragment: string } {
  const i = uri.indexOf('#');
  if (i < 0) return { document: uri, fragment: '' };
  const raw = uri.slice(i + 1);
  let fragment = raw;
  try {
    fragment = decodeURIComponent(raw);
  } catch {
    // keep the raw fragment; the lookup will simply fail
  }
  return { document: uri.slice(0, i), fragment };
}

/** Escapes one JSON Pointer reference token (RFC 6901). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Builds a URI fragment (`#/…`) from raw tokens, escaped for both JSON Pointer and URI syntax. */
export function pointerFragment(tokens: readonly string[]): string {
  return `#${tokens.map((t) => `/${encodeURIComponent(escapePointerToken(t)).replace(/%24/g, '$')}`).join('')}`;
}

/** Evaluates a JSON Pointer (already URI-decoded) against a JSON value; undefined when it does not resolve. */
export function evaluatePointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let current: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (isSchemaObject(current) && Object.hasOwn(current, token)) {
      current = current[token];
    } else {
      return undefined;
    }
  }
  return current;
}

/** Every `$ref`/`$dynamicRef` of a document, resolved to absolute URIs against the base in force. */
export function externalReferences(doc: JsonSchema, baseUri: string): string[] {
  const refs = new Set<string>();
  // Resources embedded in the document itself (root or nested `$id`) need no fetching.
  const embedded = new Set<string>([splitFragment(baseUri).document]);
  walkSchema(doc, baseUri, (node, base) => {
    if (typeof node.$id === 'string') embedded.add(splitFragment(base).document);
    for (const kw of ['$ref', '$dynamicRef'] as const) {
      const r = node[kw];
      if (typeof r === 'string') refs.add(splitFragment(resolveUri(r, base)).document);
    }
  });
  return [...refs].filter((r) => !embedded.has(r));
}

/** Deep-freezes a parsed JSON value so shared pinned documents cannot be altered by a caller. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
