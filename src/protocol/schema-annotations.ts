/**
 * UCP's direction annotations and this project's message annotations.
 *
 * A UCP schema describes one shape for both directions; `ucp_request` / `ucp_response` on a
 * property say how that property behaves in one direction:
 *   - `"omit"`:     the property is not part of that direction (dropped from `properties` and `required`);
 *   - `"required"`: it must be present in that direction (added to `required`);
 *   - `"optional"`: it may be absent in that direction (removed from `required`);
 *   - absent:       the base schema decides.
 * The value may also be per operation (`{"search": "omit", "lookup": "required"}`) or a schema
 * transition (`{"transition": {"from", "to", "description"}}`), during which `from` still holds.
 * `resolveAnnotations` applies them once, producing the plain JSON Schema of one direction.
 *
 * `x-hint` (a short phrase: units, shape, an example) and `x-error` (a replacement message, for
 * every failing keyword of that node or per keyword) only feed `validation-errors.ts`; they never
 * change what validates.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { isSchemaObject, mapSchema, type JsonSchema } from './schema-walk.js';

export type Direction = 'request' | 'response';
export type Visibility = 'omit' | 'optional' | 'required';

const VISIBILITIES: readonly string[] = ['omit', 'optional', 'required'];

function isVisibility(v: unknown): v is Visibility {
  return typeof v === 'string' && VISIBILITIES.includes(v);
}

function fromTransition(v: unknown): Visibility | undefined {
  if (!isSchemaObject(v) || !isSchemaObject(v.transition)) return undefined;
  const from = v.transition.from;
  return isVisibility(from) ? from : undefined;
}

/**
 * The visibility an annotation value gives for `operation`; undefined when the annotation says
 * nothing for it (no annotation, or a per-operation map without that operation).
 */
export function visibilityOf(annotation: unknown, operation: string | undefined): Visibility | undefined {
  if (isVisibility(annotation)) return annotation;
  const transition = fromTransition(annotation);
  if (transition !== undefined) return transition;
  if (!isSchemaObject(annotation) || operation === undefined) return undefined;
  const perOp = annotation[operation];
  return isVisibility(perOp) ? perOp : fromTransition(perOp);
}

/**
 * Returns a copy of `schema` with the `ucp_<direction>` annotations applied to every object
 * node whose `properties` carry them. The annotation must sit on the property schema in the
 * same node as the `required` list it affects (the layout of every UCP schema).
 */
export function resolveAnnotations(
  schema: JsonSchema,
  direction: Direction,
  operation: string | undefined,
  baseUri = 'urn:ucp-location:anonymous',
): JsonSchema {
  const keyword = direction === 'request' ? 'ucp_request' : 'ucp_response';
  return mapSchema(schema, baseUri, (node) => {
    const props = node.properties;
    if (!isSchemaObject(props)) return node;
    const required = new Set(Array.isArray(node.required) ? (node.required as unknown[]) : []);
    const kept: JsonSchema = {};
    let changed = false;
    for (const [name, sub] of Object.entries(props)) {
      const vis = isSchemaObject(sub) ? visibilityOf(sub[keyword], operation) : undefined;
      if (vis === 'omit') {
        changed = true;
        required.delete(name);
        continue;
      }
      if (vis === 'required' && !required.has(name)) {
        required.add(name);
        changed = true;
      }
      if (vis === 'optional' && required.has(name)) {
        required.delete(name);
        changed = true;
      }
      kept[name] = sub;
    }
    if (!changed) return node;
    const out: JsonSchema = { ...node, properties: kept };
    if (required.size > 0) out.required = [...required];
    else delete out.required;
    return out;
  });
}

const VISIBILITY_SCHEMA = { enum: VISIBILITIES };
const TRANSITION_SCHEMA = {
  type: 'object',
  required: ['transition'],
  properties: {
    transition: {
      type: 'object',
      required: ['from', 'to', 'description'],
      properties: { from: VISIBILITY_SCHEMA, to: VISIBILITY_SCHEMA, description: { type: 'string' } },
    },
  },
};

/** Value shape of `ucp_request` / `ucp_response`: a visibility, a transition, or either per operation. */
const DIRECTION_ANNOTATION_SCHEMA = {
  anyOf: [
    VISIBILITY_SCHEMA,
    TRANSITION_SCHEMA,
    {
      type: 'object',
      not: { required: ['transition'] },
      additionalProperties: { anyOf: [VISIBILITY_SCHEMA, TRANSITION_SCHEMA] },
    },
  ],
};

/** Meta-schemas of the annotation keywords, so a malformed annotation fails at compile time. */
const ANNOTATION_META: Readonly<Record<string, object>> = {
  ucp_request: DIRECTION_ANNOTATION_SCHEMA,
  ucp_response: DIRECTION_ANNOTATION_SCHEMA,
  'x-hint': { type: 'string', minLength: 1 },
  'x-error': {
    anyOf: [
      { type: 'string', minLength: 1 },
      { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
    ],
  },
  // Capability documents name the capability they define at their root.
  name: { type: 'string' },
};

/** Annotation keywords this project understands; stripped from bundles handed to third parties. */
export const ANNOTATION_KEYWORDS: readonly string[] = Object.keys(ANNOTATION_META);

/** Keywords UCP itself defines; a malformed value is a schema error wherever it appears. */
const UCP_DEFINED = new Set(['ucp_request', 'ucp_response']);

/**
 * Registers the annotation keywords (no validation effect). Values of the UCP-defined ones are
 * always checked against their meta-schema; `checkProjectKeywords` also checks this project's
 * own (`x-hint`, `x-error`, `name`) — wanted for our documents, but a third-party schema that
 * happens to use one of those names differently must still compile.
 */
export function registerAnnotationKeywords(ajv: Ajv2020, options: { checkProjectKeywords?: boolean } = {}): void {
  for (const [keyword, metaSchema] of Object.entries(ANNOTATION_META)) {
    ajv.addKeyword(UCP_DEFINED.has(keyword) || options.checkProjectKeywords === true ? { keyword, metaSchema } : { keyword });
  }
}

/** The `x-hint` of a schema node, if any. */
export function hintOf(node: unknown): string | undefined {
  if (!isSchemaObject(node)) return undefined;
  const h = node['x-hint'];
  return typeof h === 'string' && h.length > 0 ? h : undefined;
}

/** The `x-error` replacement message of a schema node for a failing `keyword`, if any. */
export function errorOverrideOf(node: unknown, keyword: string): string | undefined {
  if (!isSchemaObject(node)) return undefined;
  const e = node['x-error'];
  if (typeof e === 'string' && e.length > 0) return e;
  if (isSchemaObject(e)) {
    const m = e[keyword] ?? e.default;
    if (typeof m === 'string' && m.length > 0) return m;
  }
  return undefined;
}
