/**
 * Members of a Location request that nothing reads.
 *
 * The UCP request schemas are open (SCHEMAS.md: objects accept further members, so extensions can
 * add fields), which means schema validation passes `{"query": "grocery", "near": "Los Angeles"}`
 * and the Business answers with results the caller believes are near Los Angeles. The schemas must
 * stay open, so instead of refusing such a member the answer carries a warning naming it
 * (`unknown_field`), with the members that exist at that place and, when the name exists
 * elsewhere in the request (`limit` → `pagination.limit`), where it belongs.
 *
 * "Known" is read from the schemas, not from a list kept here: the root request shape of the
 * operation, composed with the request contributions of every *negotiated* extension whose schema
 * the Business holds (overview "Schema Composition": `$defs[<root name>]`, or
 * `$defs[<root name>].$defs[<op>_request]`). A member such an extension declares is never warned
 * about. When a negotiated extension's schema is not available, nothing is reported: the Business
 * cannot tell what that extension adds, and a false warning is worse than none.
 *
 * Members of `filters` never get here: the engine refuses a filter it does not evaluate
 * (`unsupported_filter`), since ignoring one would return Locations it should exclude.
 *
 * Not checked: `context` and `signals` (hints, never operands: an ignored member there cannot
 * change which Locations match, R-S3), and the keys of maps whose keys the schema already
 * constrains (`serves` targets: an unknown target is a request error elsewhere, R-S5). Their
 * declared children (`serves.address`, `serves.point`) are checked.
 */
import {
  LOCATION_LOOKUP_SCHEMA_URL,
  LOCATION_SEARCH_SCHEMA_URL,
  SchemaRegistry,
  bundleSchema,
  extensionContribution,
  pinnedSchemaRegistry,
  type JsonSchema,
} from '../protocol/schemas.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY } from '../protocol/types.js';
import type { Message } from './requests.js';
import { editDistance } from '../protocol/edit-distance.js';

export type RequestOperation = 'search' | 'lookup';

/** The warning code of an ignored member; the same on MCP and REST (one payload, two bindings). */
export const UNKNOWN_FIELD_CODE = 'unknown_field';

/** A schema document of an extension the Business implements. */
export interface ExtensionSchemaDocument {
  /** Reverse-domain capability name, e.g. `com.example.location.parking_fee`. */
  name: string;
  /** Its schema URL (the `schema` of its capability entry). */
  url: string;
  document: object;
}

/** Checks one validated request; `activeExtensions` are the negotiated extension names. */
export type UnknownMemberCheck = (operation: RequestOperation, request: unknown, activeExtensions: readonly string[]) => Message[];

/** The warnings, and the path of every ignored member (all of them, not only those warned about). */
export interface UnknownMembers {
  warnings: Message[];
  ignored: (readonly string[])[];
}

/** As UnknownMemberCheck, also naming the ignored members (so they can be kept out of a cursor, R-J2). */
export type UnknownMemberReport = (operation: RequestOperation, request: unknown, activeExtensions: readonly string[]) => UnknownMembers;

/**
 * At most this many warnings per answer; the last one says how many more were ignored. The body
 * limit bounds a request's keys, not the size of an answer listing each of them.
 */
const MAX_WARNINGS = 20;
/** Request shapes are a few levels deep; deeper is a cycle or an extension gone wrong. */
const MAX_DEPTH = 6;
/** Hint objects: never operands (R-S3). */
const HINT_MEMBERS = new Set(['context', 'signals']);

/**
 * What a caller most likely meant by a few top-level names the schema does not declare (seen from
 * language models): the request has no place names and no "open now", only explicit operands.
 */
const AREA_HINT =
  'To limit results to an area, send "distance": {"center": {"latitude", "longitude"}, "max": <metres>}; this business does not geocode place names.';
const OPEN_HINT = 'To keep Locations open at an instant, send "filters": {"hours": {"open_at": "<RFC 3339 instant with offset>"}}.';
const TOP_LEVEL_HINTS: Readonly<Record<string, string>> = {
  near: AREA_HINT,
  location: AREA_HINT,
  place: AREA_HINT,
  city: AREA_HINT,
  radius: AREA_HINT,
  lat: AREA_HINT,
  lng: AREA_HINT,
  lon: AREA_HINT,
  open_now: OPEN_HINT,
  open: OPEN_HINT,
};

const ROOTS: Readonly<Record<RequestOperation, { name: string; url: string }>> = {
  search: { name: SEARCH_CAPABILITY, url: LOCATION_SEARCH_SCHEMA_URL },
  lookup: { name: LOOKUP_CAPABILITY, url: LOCATION_LOOKUP_SCHEMA_URL },
};

interface MemberNode {
  /** false: the keys here are not judged (a keyed map); declared children still are. */
  checked: boolean;
  /** Declared members; null when the member's own contents are not checked. */
  children: Map<string, MemberNode | null>;
}

interface MemberTree {
  root: MemberNode;
  /** Every declared member by its name → the dotted paths where it is declared. */
  byName: Map<string, string[]>;
}

/**
 * The check for a Business implementing these extensions (none by default). Trees are built once
 * per operation and set of active extensions.
 */
export function createUnknownMemberCheck(extensions: readonly ExtensionSchemaDocument[] = []): UnknownMemberCheck {
  const report = createUnknownMemberReport(extensions);
  return (operation, request, activeExtensions) => report(operation, request, activeExtensions).warnings;
}

/** The report for a Business implementing these extensions (none by default). */
export function createUnknownMemberReport(extensions: readonly ExtensionSchemaDocument[] = []): UnknownMemberReport {
  const documents = new Map(extensions.map((e) => [e.name, e]));
  let registry: SchemaRegistry | undefined;
  const trees = new Map<string, MemberTree>();
  const nothing = (): UnknownMembers => ({ warnings: [], ignored: [] });
  return (operation, request, activeExtensions) => {
    if (!isRecord(request)) return nothing();
    const active = [...new Set(activeExtensions)].sort();
    const docs: ExtensionSchemaDocument[] = [];
    for (const name of active) {
      const doc = documents.get(name);
      if (doc === undefined) return nothing(); // cannot know what it adds (see the module comment)
      docs.push(doc);
    }
    const key = JSON.stringify([operation, active]);
    let tree = trees.get(key);
    if (tree === undefined) {
      if (docs.length > 0 && registry === undefined) {
        registry = new SchemaRegistry();
        for (const e of extensions) registry.addSchema(e.url, e.document);
      }
      tree = buildTree(operation, docs, registry);
      trees.set(key, tree);
    }
    return warningsFor(operation, request, tree);
  };
}

/** The check for the bare pinned schemas: what a Business without extensions uses. */
export const unknownRequestMembers: UnknownMemberCheck = createUnknownMemberCheck();
/** The same, as a report naming the ignored members. */
export const unknownRequestMemberReport: UnknownMemberReport = createUnknownMemberReport();

/**
 * A copy of the request without the given members (the input is left alone): what shaped the
 * answer, and so all a cursor binds (R-J2). Only requests that carry ignored members pay the copy.
 */
export function withoutMembers<T extends object>(request: T, paths: readonly (readonly string[])[]): T {
  if (paths.length === 0) return request;
  const copy = structuredClone(request);
  for (const path of paths) {
    let node: unknown = copy;
    for (const name of path.slice(0, -1)) node = isRecord(node) ? node[name] : undefined;
    const last = path[path.length - 1];
    if (isRecord(node) && last !== undefined) Reflect.deleteProperty(node, last);
  }
  return copy;
}

function buildTree(
  operation: RequestOperation,
  extensions: readonly ExtensionSchemaDocument[],
  registry: SchemaRegistry | undefined,
): MemberTree {
  const root = ROOTS[operation];
  const defName = `${operation}_request`;
  const targets: Record<string, string> = { root: `${root.url}#/$defs/${defName}` };
  extensions.forEach((e, i) => {
    // An extension of the other capability adds nothing to this request.
    if (!hasDefFor(e.document, root.name)) return;
    const ref = extensionContribution(e.document as JsonSchema, e.url, e.name, root.name, defName);
    if (ref !== undefined) targets[`ext${i}`] = ref;
  });
  const bundle = bundleSchema(targets, { direction: 'request', operation }, registry ?? pinnedSchemaRegistry());
  const resolve = (ref: string): unknown => {
    if (!ref.startsWith('#/$defs/')) return undefined;
    const name = ref.slice('#/$defs/'.length).replace(/~1/g, '/').replace(/~0/g, '~');
    return bundle.defs[name];
  };
  const node = buildNode(
    Object.values(bundle.refs).map((ref) => ({ $ref: ref })),
    resolve,
    0,
  ) ?? { checked: true, children: new Map() };
  for (const hint of HINT_MEMBERS) if (node.children.has(hint)) node.children.set(hint, null);
  const byName = new Map<string, string[]>();
  indexNames(node, [], byName);
  return { root: node, byName };
}

function hasDefFor(document: object, rootName: string): boolean {
  const defs = (document as { $defs?: unknown }).$defs;
  return isRecord(defs) && isRecord(defs[rootName]);
}

interface Gathered {
  properties: Map<string, unknown[]>;
  keyed: boolean;
}

/** Declared members of the object the schemas describe together (allOf/anyOf/oneOf/if-then-else: union). */
function gather(schema: unknown, resolve: (ref: string) => unknown, into: Gathered, seen: Set<string>): void {
  if (!isRecord(schema)) return;
  const ref = schema['$ref'];
  if (typeof ref === 'string' && !seen.has(ref)) {
    seen.add(ref);
    gather(resolve(ref), resolve, into, seen);
  }
  const properties = schema['properties'];
  if (isRecord(properties)) {
    for (const [name, sub] of Object.entries(properties)) {
      const list = into.properties.get(name);
      if (list === undefined) into.properties.set(name, [sub]);
      else list.push(sub);
    }
  }
  if (schema['propertyNames'] !== undefined || schema['patternProperties'] !== undefined || isRecord(schema['additionalProperties'])) {
    into.keyed = true;
  }
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) for (const b of branches) gather(b, resolve, into, seen);
  }
  for (const keyword of ['then', 'else']) gather(schema[keyword], resolve, into, seen);
}

function buildNode(schemas: readonly unknown[], resolve: (ref: string) => unknown, depth: number): MemberNode | null {
  const into: Gathered = { properties: new Map(), keyed: false };
  for (const s of schemas) gather(s, resolve, into, new Set());
  if (into.properties.size === 0) return null;
  const children = new Map<string, MemberNode | null>();
  for (const [name, subs] of into.properties) children.set(name, depth + 1 < MAX_DEPTH ? buildNode(subs, resolve, depth + 1) : null);
  return { checked: !into.keyed, children };
}

function indexNames(node: MemberNode, path: readonly string[], out: Map<string, string[]>): void {
  for (const [name, child] of node.children) {
    const here = [...path, name];
    const list = out.get(name);
    if (list === undefined) out.set(name, [here.join('.')]);
    else list.push(here.join('.'));
    if (child !== null) indexNames(child, here, out);
  }
}

interface Unknown {
  path: readonly string[];
  known: readonly string[];
}

function warningsFor(operation: RequestOperation, request: Record<string, unknown>, tree: MemberTree): UnknownMembers {
  const found: Unknown[] = [];
  collect(request, tree.root, [], found);
  return { warnings: foundWarnings(operation, found, tree), ignored: found.map((u) => u.path) };
}

function foundWarnings(operation: RequestOperation, found: readonly Unknown[], tree: MemberTree): Message[] {
  if (found.length === 0) return [];
  const shown = found.length > MAX_WARNINGS ? found.slice(0, MAX_WARNINGS - 1) : found;
  const messages = shown.map((u) => warning(operation, u, tree));
  if (shown.length < found.length) {
    const rest = found.length - shown.length;
    messages.push({
      type: 'warning',
      code: UNKNOWN_FIELD_CODE,
      content: `${rest} more members this business does not know were ignored as well; none of them had an effect on the results.`,
    });
  }
  return messages;
}

function collect(value: Record<string, unknown>, node: MemberNode, path: readonly string[], out: Unknown[]): void {
  for (const [name, member] of Object.entries(value)) {
    if (!node.children.has(name)) {
      if (node.checked) out.push({ path: [...path, name], known: [...node.children.keys()] });
      continue;
    }
    const child = node.children.get(name);
    if (child !== null && child !== undefined && isRecord(member)) collect(member, child, [...path, name], out);
  }
}

function warning(operation: RequestOperation, u: Unknown, tree: MemberTree): Message {
  const dotted = u.path.join('.');
  const parent = u.path.slice(0, -1).join('.');
  const where = parent === '' ? `the ${operation} request` : `"${parent}"`;
  const suggestion = suggest(u, tree);
  const hint = u.path.length === 1 && Object.hasOwn(TOP_LEVEL_HINTS, dotted) ? TOP_LEVEL_HINTS[dotted] : undefined;
  return {
    type: 'warning',
    code: UNKNOWN_FIELD_CODE,
    content:
      `Ignored "${dotted}": this business knows no such member of ${where}, so it had no effect on the results.` +
      `${suggestion === undefined ? '' : ` Did you mean "${suggestion}"?`}` +
      `${hint === undefined || suggestion !== undefined ? '' : ` ${hint}`}` +
      ` Members of ${where}: ${u.known.join(', ')}.`,
    path: jsonPath(u.path),
  };
}

/** A near spelling at the same place, or the same name where the schema declares it. */
function suggest(u: Unknown, tree: MemberTree): string | undefined {
  const name = u.path[u.path.length - 1] ?? '';
  const parent = u.path.slice(0, -1);
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of u.known) {
    const d = k.toLowerCase() === lower ? 0 : editDistance(lower, k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  const close = (d: number): boolean => d <= Math.min(2, Math.floor(name.length / 3));
  if (best !== undefined && close(bestDistance)) return [...parent, best].join('.');
  // Declared elsewhere (`limit` → `pagination.limit`), exactly or nearly (`amenity` → `filters.amenities`).
  const exact = tree.byName.get(name);
  if (exact !== undefined) return exact[0];
  let nearest: string | undefined;
  let nearestDistance = Infinity;
  for (const [declared, paths] of tree.byName) {
    const d = editDistance(lower, declared.toLowerCase());
    if (d < nearestDistance) [nearest, nearestDistance] = [paths[0], d];
  }
  return close(nearestDistance) ? nearest : undefined;
}

/** RFC 9535 normalized path into the request, as the other messages of a response use. */
function jsonPath(path: readonly string[]): string {
  return `$${path.map((s) => `['${escapeName(s)}']`).join('')}`;
}

/** RFC 9535 §2.7: backslash, quote and control characters are escaped in a normalized path. */
function escapeName(name: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point: they must be escaped
  return name.replace(/[\\'\u0000-\u001f]/g, (c) => {
    if (c === '\\') return '\\\\';
    if (c === "'") return "\\'";
    const short: Record<string, string> = { '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    return short[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
