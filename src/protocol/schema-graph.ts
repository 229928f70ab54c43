/**
 * An index of the schema documents one validator instance knows, answering "which schema nodes
 * can be reached from this node by following subschemas and `$ref`s". Ajv's `schemaPath` is
 * relative to the referenced document once a `$ref` is crossed, so it cannot tell which
 * `anyOf`/`oneOf` branch an error came from; node reachability (Ajv reports the failing node as
 * `parentSchema`, by identity) can.
 */
import { evaluatePointer, forEachChild, isSchemaObject, resolveUri, splitFragment, walkSchema, type JsonSchema } from './schema-walk.js';

export interface SchemaReachability {
  /**
   * Every object node whose keywords can be evaluated as a consequence of evaluating `node`,
   * `node` included. With `sameInstance`, only those evaluated on the same value (not on its
   * members or items): applicators such as `allOf` and `$ref`, but not `properties` or `items`.
   */
  reachable(node: object, sameInstance?: boolean): ReadonlySet<object>;
}

/** Keywords whose subschemas apply to the very value their parent applies to. */
const SAME_INSTANCE = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas']);
/** Keywords whose subschemas are never applied on their own (only through `$ref`). */
const NOT_APPLIED = new Set(['$defs', 'definitions']);

export class SchemaGraph implements SchemaReachability {
  /** Resource URI (no fragment) → resource root node. */
  private readonly resources = new Map<string, JsonSchema>();
  /** `uri#anchor` → node, for plain-name fragments. */
  private readonly anchors = new Map<string, JsonSchema>();
  private readonly baseOf = new WeakMap<object, string>();
  private readonly reachCache = new WeakMap<object, ReadonlySet<object>>();
  private readonly sameInstanceCache = new WeakMap<object, ReadonlySet<object>>();

  /** Indexes a document (and any resources embedded in it by nested `$id`). */
  addDocument(uri: string, doc: JsonSchema): void {
    this.resources.set(splitFragment(uri).document, doc);
    walkSchema(doc, uri, (node, base) => {
      this.baseOf.set(node, base);
      if (typeof node.$id === 'string') this.resources.set(splitFragment(base).document, node);
      for (const kw of ['$anchor', '$dynamicAnchor'] as const) {
        const a = node[kw];
        if (typeof a === 'string') this.anchors.set(`${splitFragment(base).document}#${a}`, node);
      }
    });
  }

  /** The node a `$ref` written in `from` points to, if this graph holds it. */
  resolveRef(ref: string, from: object): JsonSchema | undefined {
    const base = this.baseOf.get(from);
    const absolute = base === undefined ? ref : resolveUri(ref, base);
    const { document, fragment } = splitFragment(absolute);
    const resource = this.resources.get(document);
    if (resource === undefined) return undefined;
    if (fragment === '' || fragment.startsWith('/')) {
      const target = evaluatePointer(resource, fragment);
      return isSchemaObject(target) ? target : undefined;
    }
    return this.anchors.get(`${document}#${fragment}`);
  }

  reachable(node: object, sameInstance = false): ReadonlySet<object> {
    const cache = sameInstance ? this.sameInstanceCache : this.reachCache;
    const cached = cache.get(node);
    if (cached !== undefined) return cached;
    const seen = new Set<object>();
    const stack: JsonSchema[] = [node as JsonSchema];
    while (stack.length > 0) {
      const current = stack.pop() as JsonSchema;
      if (seen.has(current)) continue;
      seen.add(current);
      forEachChild(current, (child, path) => {
        const kw = path[0] as string;
        if (!NOT_APPLIED.has(kw) && (!sameInstance || SAME_INSTANCE.has(kw))) stack.push(child);
      });
      for (const kw of ['$ref', '$dynamicRef'] as const) {
        const r = current[kw];
        if (typeof r !== 'string') continue;
        const target = this.resolveRef(r, current);
        if (target !== undefined) stack.push(target);
      }
    }
    cache.set(node, seen);
    return seen;
  }
}
