/**
 * Bundles schemas spread over several documents into one self-contained schema: every target
 * reachable through `$ref` becomes an entry of a single `$defs` map and each `$ref` is rewritten
 * to `#/$defs/<name>`. Consumers that do not follow cross-document references (the MCP SDK
 * validating a tool's `outputSchema`, LLM tool catalogues) get the whole shape in one object.
 * Only what is reachable is copied; `$id`, `$schema`, nested `$defs` and the given annotation
 * keywords are dropped from the copies.
 */
import {
  escapePointerToken,
  evaluatePointer,
  isSchemaObject,
  mapSchema,
  resolveUri,
  splitFragment,
  type JsonSchema,
} from './schema-walk.js';

export interface SchemaBundle {
  /** For each requested target key, the local reference (`#/$defs/<name>`) to use for it. */
  readonly refs: Readonly<Record<string, string>>;
  /** The bundled definitions. */
  readonly defs: Readonly<Record<string, JsonSchema>>;
}

export interface BundleOptions {
  /** Keywords removed from every copied node (e.g. project-specific annotations). */
  readonly stripKeywords?: readonly string[];
}

/** Readable def name for a target: `<file name>[.<pointer tokens other than $defs>]`. */
function baseName(document: string, fragment: string): string {
  const file = (document.split('/').pop() ?? 'schema').replace(/\.json$/, '');
  const tokens = fragment
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .filter((t) => t !== '$defs' && t !== 'definitions');
  return [file, ...tokens].join('.');
}

/**
 * @param targets key → absolute schema URI (with optional JSON Pointer fragment)
 * @param getDocument document URL (no fragment) → document, or undefined when unknown
 */
export function bundleSchemas(
  targets: Readonly<Record<string, string>>,
  getDocument: (url: string) => JsonSchema | undefined,
  options: BundleOptions = {},
): SchemaBundle {
  const strip = new Set(['$id', '$schema', '$defs', 'definitions', ...(options.stripKeywords ?? [])]);
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const defs: Record<string, JsonSchema> = {};
  const queue: { uri: string; name: string }[] = [];

  const nameFor = (absolute: string): string => {
    const { document, fragment } = splitFragment(absolute);
    const key = `${document}#${fragment}`;
    const known = names.get(key);
    if (known !== undefined) return known;
    let name = baseName(document, fragment);
    for (let i = 2; taken.has(name); i++) name = `${baseName(document, fragment)}_${i}`;
    names.set(key, name);
    taken.add(name);
    queue.push({ uri: key, name });
    return name;
  };

  const refs: Record<string, string> = {};
  for (const [key, uri] of Object.entries(targets)) refs[key] = `#/$defs/${escapePointerToken(nameFor(uri))}`;

  while (queue.length > 0) {
    const { uri, name } = queue.shift() as { uri: string; name: string };
    const { document, fragment } = splitFragment(uri);
    const doc = getDocument(document);
    if (doc === undefined) throw new Error(`Cannot bundle ${uri}: document ${document} is unknown`);
    if (fragment !== '' && !fragment.startsWith('/')) throw new Error(`Cannot bundle ${uri}: only JSON Pointer fragments are supported`);
    const node = evaluatePointer(doc, fragment);
    if (!isSchemaObject(node)) throw new Error(`Cannot bundle ${uri}: it does not point at a schema object`);
    // First drop nested $defs (unreferenced ones must not pull their references in), then rewrite refs.
    const pruned = mapSchema(node, document, (copy) => {
      const { $defs: _d, definitions: _e, ...rest } = copy;
      return rest;
    });
    defs[name] = mapSchema(pruned, document, (copy, base) => {
      const out: JsonSchema = {};
      for (const [k, v] of Object.entries(copy)) if (!strip.has(k)) out[k] = v;
      if (typeof copy.$ref === 'string') out.$ref = `#/$defs/${escapePointerToken(nameFor(resolveUri(copy.$ref, base)))}`;
      if (typeof copy.$dynamicRef === 'string') throw new Error(`Cannot bundle ${uri}: $dynamicRef is not supported`);
      return out;
    });
  }
  return { refs, defs };
}
