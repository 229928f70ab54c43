/**
 * Turns Ajv's raw error list into short, actionable messages, one per problem, each with the
 * JSON Pointer of the failing value.
 *
 * Ajv (run with `allErrors` and `verbose`) reports every failing keyword, including those of
 * every rejected `anyOf`/`oneOf` branch and of `propertyNames` subschemas. Those are collapsed
 * here: an `x-error` on the node replaces them; otherwise the branch the data most plausibly
 * meant is kept (branches rejected on their discriminator — wrong `type` of the value itself, or a
 * `const`/`enum` on it or one of its members — are the least plausible; then the fewest errors
 * wins). Messages get the node's `x-hint` in parentheses and a short "got …" detail where that
 * helps; numbers and free text sent by the caller are not echoed (they may be precise buyer
 * coordinates). No message is ever empty.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { errorOverrideOf, hintOf } from './schema-annotations.js';
import type { SchemaReachability } from './schema-graph.js';
import { escapePointerToken, isSchemaObject } from './schema-walk.js';

export interface SchemaIssue {
  /** JSON Pointer (RFC 6901) of the offending value within the validated document; '' = the document. */
  readonly pointer: string;
  readonly message: string;
}

/** An error still to be rendered, or a message already decided by collapsing alternatives. */
interface Item {
  readonly pointer: string;
  /** The schema node the item stems from (for branch membership). */
  readonly node: object | undefined;
  readonly error?: ErrorObject;
  readonly message?: string;
}

const FORMAT_TEXT: Readonly<Record<string, string>> = {
  'date-time': 'must be an RFC 3339 date-time with Z or a numeric offset, e.g. 2026-11-30T10:00:00-08:00',
  date: 'must be a calendar date YYYY-MM-DD',
  uri: 'must be an absolute URI including its scheme, e.g. https://platform.example/profile.json',
  'uri-reference': 'must be a URI reference',
  uuid: 'must be a UUID, e.g. 5f1c3a9e-8d2b-4c7a-9e61-0b3d2f4a6c8e',
  email: 'must be an email address',
};

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function within(pointer: string, base: string): boolean {
  return pointer === base || pointer.startsWith(`${base}/`);
}

function depthBelow(pointer: string, base: string): number {
  return pointer === base ? 0 : pointer.slice(base.length).split('/').length - 1;
}

function shortLiteral(v: unknown): string | undefined {
  return typeof v === 'string' && v.length <= 40 ? JSON.stringify(v) : typeof v === 'boolean' || v === null ? String(v) : undefined;
}

function genericMessage(e: ErrorObject): string {
  const p: Record<string, unknown> = e.params;
  switch (e.keyword) {
    case 'required':
      return `missing required property ${JSON.stringify(p.missingProperty)}`;
    case 'type': {
      const t = Array.isArray(p.type) ? p.type : String(p.type).split(',');
      return `must be ${t.join(' or ')}`;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(p.comparison)} ${String(p.limit)}`;
    case 'minItems':
      return `must contain at least ${plural(Number(p.limit), 'item', 'items')}`;
    case 'maxItems':
      return `must contain at most ${plural(Number(p.limit), 'item', 'items')}`;
    case 'minLength':
      return Number(p.limit) === 1 ? 'must not be empty' : `must be at least ${plural(Number(p.limit), 'character', 'characters')} long`;
    case 'maxLength':
      return `must be at most ${plural(Number(p.limit), 'character', 'characters')} long`;
    case 'minProperties':
      return `must have at least ${plural(Number(p.limit), 'property', 'properties')}`;
    case 'maxProperties':
      return `must have at most ${plural(Number(p.limit), 'property', 'properties')}`;
    case 'pattern':
      return `must match the pattern ${String(p.pattern)}`;
    case 'format':
      return FORMAT_TEXT[String(p.format)] ?? `must be a valid ${String(p.format)}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'enum':
      return `must be one of: ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'additionalProperties':
      return `has unknown property ${JSON.stringify(p.additionalProperty)}, which is not allowed here`;
    case 'unevaluatedProperties':
      return `has unknown property ${JSON.stringify(p.unevaluatedProperty)}, which is not allowed here`;
    case 'dependentRequired':
      return `property ${JSON.stringify(p.property)} requires ${JSON.stringify(p.missingProperty)} as well`;
    case 'uniqueItems':
      return `must not contain duplicates (items ${String(p.j)} and ${String(p.i)} are equal)`;
    case 'multipleOf':
      return `must be a multiple of ${String(p.multipleOf)}`;
    case 'false schema':
      return 'is not allowed here';
    case 'not':
      return 'matches a shape that is not allowed here';
    case 'anyOf':
    case 'oneOf':
      return 'does not match any of the allowed shapes';
    default:
      return e.message !== undefined && e.message.length > 0 ? e.message : 'is invalid';
  }
}

/** "got …" detail for keywords where showing the received shape helps the caller fix the request. */
function detailOf(e: ErrorObject): string | undefined {
  switch (e.keyword) {
    case 'type':
      return `got ${jsonType(e.data)}`;
    case 'minProperties':
    case 'maxProperties': {
      const keys = isSchemaObject(e.data) ? Object.keys(e.data) : [];
      const shown = keys.slice(0, 10).join(', ') + (keys.length > 10 ? ', …' : '');
      return keys.length === 0 ? 'got 0' : `got ${keys.length}: ${shown}`;
    }
    case 'const':
    case 'enum': {
      const lit = shortLiteral(e.data);
      return lit === undefined ? undefined : `got ${lit}`;
    }
    default:
      return undefined;
  }
}

function pointerOf(e: ErrorObject): string {
  return e.instancePath;
}

function render(e: ErrorObject): string {
  const node = e.parentSchema;
  const override = errorOverrideOf(node, e.keyword);
  const detail = detailOf(e);
  if (override !== undefined) return detail === undefined ? override : `${override}; ${detail}`;
  const hint =
    e.keyword === 'required' && isSchemaObject(node) && isSchemaObject(node.properties)
      ? hintOf(node.properties[String(ajvParam(e, 'missingProperty'))])
      : hintOf(node);
  const tail = detail === undefined ? '' : `; ${detail}`;
  // A hint states the expected shape in words, which beats quoting the regular expression.
  if (e.keyword === 'pattern' && hint !== undefined) return `must be ${hint}${tail}`;
  return `${genericMessage(e)}${hint === undefined ? '' : ` (${hint})`}${tail}`;
}

function messageOf(item: Item): string {
  if (item.message !== undefined) return item.message;
  if (item.error !== undefined) return render(item.error);
  return 'is invalid';
}

/**
 * Pops the trailing items of `out` that stem from `subschemas` (evaluated on the value at
 * `pointer`), assigning each to the first subschema, at or after the previous item's, that
 * reaches its node. Ajv appends a combinator's branch errors immediately before the
 * combinator's own error, in branch order, so the members form a contiguous tail.
 */
function popMembers(
  out: Item[],
  pointer: string,
  subschemas: readonly object[],
  graph: SchemaReachability,
): { item: Item; branch: number }[] {
  const popped: { item: Item; branch: number }[] = [];
  let branchCeiling = subschemas.length - 1;
  while (out.length > 0) {
    const last = out[out.length - 1] as Item;
    if (last.node === undefined || !within(last.pointer, pointer)) break;
    // An error on the combinator's own value can only come from subschemas applied to that value.
    const sameInstance = last.pointer === pointer;
    let branch = -1;
    for (let b = branchCeiling; b >= 0; b--) {
      if (graph.reachable(subschemas[b] as object, sameInstance).has(last.node)) {
        branch = b;
        break;
      }
    }
    if (branch < 0) break;
    branchCeiling = branch;
    popped.unshift({ item: last, branch });
    out.pop();
  }
  return popped;
}

/** A branch error that shows the value was never meant for that branch. */
function isDiscriminatorMiss(item: Item, base: string): boolean {
  const e = item.error;
  if (e === undefined) return false;
  if (e.keyword === 'type') return item.pointer === base;
  if (e.keyword === 'const' || e.keyword === 'enum') return depthBelow(item.pointer, base) <= 1 && within(item.pointer, base);
  return false;
}

function collapseAlternatives(e: ErrorObject, out: Item[], graph: SchemaReachability): Item[] {
  const pointer = pointerOf(e);
  const node = e.parentSchema;
  const branches = Array.isArray(e.schema) ? (e.schema as unknown[]).filter(isSchemaObject) : [];
  const popped = popMembers(out, pointer, branches, graph);
  const override = errorOverrideOf(node, e.keyword);
  if (override !== undefined) return [{ pointer, node, message: override }];

  const passing = ajvParam(e, 'passingSchemas');
  if (e.keyword === 'oneOf' && Array.isArray(passing)) {
    return [
      {
        pointer,
        node,
        message: `matches more than one of the allowed shapes (alternatives ${passing.join(' and ')}); it must match exactly one`,
      },
    ];
  }

  const groups = branches.map((_, b) => popped.filter((p) => p.branch === b).map((p) => p.item)).filter((g) => g.length > 0);
  if (groups.length === 0) return [{ pointer, node, message: genericMessage(e) }];

  const plausible = groups.filter((g) => !g.some((i) => isDiscriminatorMiss(i, pointer)));
  if (plausible.length > 0) {
    return plausible.reduce((best, g) => (g.length < best.length ? g : best));
  }

  // Every branch rejected the value on its discriminator: say what would have been accepted.
  const misses = groups.map((g) => g.find((i) => isDiscriminatorMiss(i, pointer)) as Item);
  const first = misses[0] as Item;
  if (misses.every((m) => m.error?.keyword === 'type')) {
    const types = [...new Set(misses.map((m) => String(m.error === undefined ? undefined : ajvParam(m.error, 'type'))))];
    return [{ pointer, node, message: `must be ${types.join(' or ')}; got ${jsonType(first.error?.data)}` }];
  }
  if (misses.every((m) => (m.error?.keyword === 'const' || m.error?.keyword === 'enum') && m.pointer === first.pointer)) {
    const allowed = misses.flatMap((m) => {
      const p = m.error?.params as { allowedValue?: unknown; allowedValues?: unknown[] };
      return m.error?.keyword === 'const' ? [p.allowedValue] : (p.allowedValues ?? []);
    });
    const lit = shortLiteral(first.error?.data);
    const message = `must be one of: ${[...new Set(allowed.map((v) => JSON.stringify(v)))].join(', ')}${lit === undefined ? '' : `; got ${lit}`}`;
    return [{ pointer: first.pointer, node, message }];
  }
  return groups.reduce((best, g) => (g.length < best.length ? g : best));
}

function collapsePropertyNames(e: ErrorObject, out: Item[], graph: SchemaReachability): Item {
  const pointer = pointerOf(e);
  const node = e.parentSchema;
  const names: unknown = isSchemaObject(node) ? node['propertyNames'] : undefined;
  const popped = isSchemaObject(names) ? popMembers(out, pointer, [names], graph) : [];
  const key = JSON.stringify(ajvParam(e, 'propertyName'));
  const override = errorOverrideOf(node, 'propertyNames');
  if (override !== undefined) return { pointer, node, message: `${override}; got key ${key}` };
  const inner = popped[0]?.item;
  const why = inner === undefined ? undefined : messageOf(inner);
  return { pointer, node, message: `has an invalid key ${key}${why === undefined ? '' : ` (the key ${why})`}` };
}

/**
 * Ajv errors (from a validator compiled with `allErrors: true, verbose: true`) → deduplicated
 * issues in document order. `graph` must index the documents the validator was compiled from.
 */
export function explainValidationErrors(errors: readonly ErrorObject[], graph: SchemaReachability): SchemaIssue[] {
  const out: Item[] = [];
  for (const e of errors) {
    // An `if` error only says that `then`/`else` failed; their own errors precede it.
    if (e.keyword === 'if') continue;
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') {
      out.push(...collapseAlternatives(e, out, graph));
    } else if (e.keyword === 'propertyNames') {
      out.push(collapsePropertyNames(e, out, graph));
    } else {
      out.push({ pointer: pointerOf(e), node: isSchemaObject(e.parentSchema) ? e.parentSchema : undefined, error: e });
    }
  }
  const seen = new Set<string>();
  const issues: SchemaIssue[] = [];
  for (const item of out) {
    const message = messageOf(item);
    const key = `${item.pointer}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ pointer: item.pointer, message });
  }
  return issues;
}

/** One line for logs and error messages: `"/a/b: msg; /c: msg (+2 more)"`. */
export function summarizeIssues(issues: readonly SchemaIssue[], limit = 3): string {
  if (issues.length === 0) return 'is invalid';
  const shown = issues.slice(0, limit).map((i) => `${i.pointer === '' ? '(root)' : i.pointer}: ${i.message}`);
  const more = issues.length > limit ? ` (+${issues.length - limit} more)` : '';
  return `${shown.join('; ')}${more}`;
}

/** Re-roots issue pointers under `prefix` (raw tokens), e.g. `['location']` for MCP tool arguments. */
export function prefixIssues(issues: readonly SchemaIssue[], prefix: readonly string[]): SchemaIssue[] {
  const head = prefix.map((t) => `/${escapePointerToken(t)}`).join('');
  return issues.map((i) => ({ pointer: head + i.pointer, message: i.message }));
}

/** One member of an Ajv error's `params` (which Ajv types as `any`). */
export function ajvParam(e: ErrorObject, name: string): unknown {
  const params: Record<string, unknown> = e.params;
  return params[name];
}
