/**
 * Schema registry and capability-schema composition (overview "Schema Composition").
 *
 * The registry holds the pinned `dev.ucp.*` documents of the release plus any third-party
 * documents the caller supplies — directly (`addSchema`) or through a loader callback invoked for
 * URLs it does not hold yet. It does no I/O of its own: the caller's loader is responsible for
 * authority binding and safe fetching (R-N2…R-N4).
 *
 * Validation runs per *view* — a direction (request/response) and an operation — because the
 * `ucp_request`/`ucp_response` annotations give each view its own plain JSON Schema. Each view
 * owns one Ajv 2020 instance holding annotation-resolved copies of every known document.
 *
 * Composition: the payload schema of an operation is
 *   allOf: [ root#/$defs/<defName>, ext₁#/$defs/<root name>[/$defs/<defName>], … ]
 * An extension describes its additions under `$defs[<root capability name>]`; for container
 * capabilities such as Location (one file, several payload shapes) it may instead hold one
 * entry per shape under `$defs[<root name>].$defs[<defName>]`, and an extension that names
 * shapes but not this one leaves this shape alone. Compiled validators are cached per
 * composition, so the same composition always yields the same function.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { comparableUrl } from './comparable-url.js';
import { pinnedSchemaDocuments } from './pinned-schemas.js';
import { registerAnnotationKeywords, resolveAnnotations, type Direction } from './schema-annotations.js';
import { SchemaGraph } from './schema-graph.js';
import {
  externalReferences,
  isSchemaObject,
  pointerFragment,
  resolveUri,
  splitFragment,
  walkSchema,
  type JsonSchema,
} from './schema-walk.js';
import { explainValidationErrors, type SchemaIssue } from './validation-errors.js';
import { causeMessage } from '../errors.js';

export type ValidationResult = { readonly valid: true } | { readonly valid: false; readonly errors: readonly SchemaIssue[] };

/** Validates one payload; never throws for invalid data. */
export type PayloadValidator = (data: unknown) => ValidationResult;

/** Fetches a schema document the registry does not hold. Binding checks and safe fetching are the caller's job. */
export type SchemaLoader = (url: string) => Promise<object>;

/** An active extension of the root capability, as negotiated. */
export interface ExtensionSchemaRef {
  /** Reverse-domain capability name of the extension, e.g. `com.example.location.parking_fee`. */
  readonly name: string;
  /** Its (authority-bound) schema URL. */
  readonly schemaUrl: string;
}

export interface ViewOptions {
  /** Defaults from the def name: `<op>_request` → request, anything else → response. */
  readonly direction?: Direction;
  /** Operation for per-operation annotations; defaults to `<op>` of `<op>_<direction>`. */
  readonly operation?: string;
}

export interface SchemaRegistryOptions {
  /** Loader for third-party documents; without it only pinned and added documents are available. */
  readonly loader?: SchemaLoader;
  /** Bound on third-party documents held, so a hostile schema cannot chain fetches forever. Default 256. */
  readonly maxDocuments?: number;
}

/** A schema problem (not a payload problem): missing document, bad `$id`, uncompilable schema. */
export class SchemaRegistryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SchemaRegistryError';
  }
}

const VALID: ValidationResult = Object.freeze({ valid: true });
const SHAPE_NAME = /^(.+)_(request|response)$/;

/** Direction and operation implied by a `$defs` name such as `search_request`. */
export function viewOfDef(defName: string | undefined, options: ViewOptions = {}): { direction: Direction; operation: string | undefined } {
  const m = defName === undefined ? null : SHAPE_NAME.exec(defName);
  return {
    direction: options.direction ?? (m?.[2] === 'request' ? 'request' : 'response'),
    operation: options.operation ?? m?.[1],
  };
}

/** One direction+operation: an Ajv instance and the graph of the documents it holds. */
class View {
  readonly ajv: Ajv2020;
  readonly graph = new SchemaGraph();
  readonly resolved = new Map<string, JsonSchema>();

  constructor(
    readonly direction: Direction,
    readonly operation: string | undefined,
  ) {
    // allErrors + verbose: every failing keyword with its schema node, for actionable messages.
    // strict off: third-party schemas may carry keywords we do not know; our own documents are
    // checked in strict mode by their tests.
    this.ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false, validateFormats: true });
    ajvFormats.default(this.ajv);
    registerAnnotationKeywords(this.ajv);
  }

  /** `trusted`: a pinned document, meta-validated by its tests rather than at every start. */
  add(url: string, doc: JsonSchema, trusted: boolean): void {
    if (this.resolved.has(url)) return;
    const copy = resolveAnnotations(doc, this.direction, this.operation, url);
    const withId = copy.$id === undefined ? { ...copy, $id: url } : copy;
    try {
      this.ajv.addSchema(withId, url, undefined, !trusted);
    } catch (cause) {
      throw new SchemaRegistryError(`Schema ${url} is not a valid JSON Schema 2020-12 document: ${causeMessage(cause)}`, { cause });
    }
    this.graph.addDocument(url, withId);
    this.resolved.set(url, withId);
  }

  wrap(validate: ValidateFunction): PayloadValidator {
    return (data) => {
      if (validate(data)) return VALID;
      return { valid: false, errors: explainValidationErrors(validate.errors ?? [], this.graph) };
    };
  }
}

export class SchemaRegistry {
  private readonly documents = new Map<string, JsonSchema>();
  private readonly pinned: ReadonlySet<string>;
  /** comparableUrl(pinned URL) → pinned URL: other spellings of a pinned document find it. */
  private readonly pinnedSpellings: ReadonlyMap<string, string>;
  private readonly views = new Map<string, View>();
  private readonly validators = new Map<string, PayloadValidator>();
  private readonly compositions = new Map<string, Promise<PayloadValidator>>();
  private readonly loading = new Map<string, Promise<void>>();
  private readonly loader: SchemaLoader | undefined;
  private readonly maxDocuments: number;
  private thirdParty = 0;
  /** Whether any held document annotates per operation; until then one view per direction suffices. */
  private perOperation = false;

  constructor(options: SchemaRegistryOptions = {}) {
    const pinned = pinnedSchemaDocuments();
    for (const [url, doc] of pinned) this.documents.set(url, doc);
    this.pinned = new Set(pinned.keys());
    this.pinnedSpellings = new Map([...pinned.keys()].map((url) => [comparableUrl(url) ?? url, url]));
    this.perOperation = [...pinned].some(([url, doc]) => hasPerOperationAnnotations(doc, url));
    this.loader = options.loader;
    this.maxDocuments = options.maxDocuments ?? 256;
  }

  /** Whether a document (URL without fragment) is held, pinned or added. */
  has(url: string): boolean {
    return this.documents.has(splitFragment(url).document);
  }

  /** The document as held (annotations unresolved), or undefined. */
  getSchema(url: string): JsonSchema | undefined {
    return this.documents.get(splitFragment(url).document);
  }

  /** The annotation-resolved copy of a held document for one view (what validators compile). */
  resolvedSchema(url: string, view: ViewOptions & { direction: Direction }): JsonSchema | undefined {
    const key = splitFragment(url).document;
    if (!this.documents.has(key)) return undefined;
    const v = this.view(view.direction, view.operation);
    this.syncView(v);
    return v.resolved.get(key);
  }

  /**
   * Adds a third-party document fetched by the caller. Its root `$id`, when present, must equal
   * `url`, and nested `$id`s must stay on `url`'s origin, so a fetched schema can never shadow a
   * pinned `dev.ucp.*` document or another party's schema.
   */
  addSchema(url: string, document: object): void {
    const key = splitFragment(url).document;
    if (this.pinned.has(key)) throw new SchemaRegistryError(`${key} is a pinned UCP schema and cannot be replaced`);
    if (this.documents.has(key)) return;
    if (!isSchemaObject(document)) throw new SchemaRegistryError(`Schema ${key} must be a JSON object`);
    if (this.thirdParty >= this.maxDocuments) {
      throw new SchemaRegistryError(`Refusing schema ${key}: the registry already holds ${this.maxDocuments} third-party documents`);
    }
    checkIdentifiers(key, document);
    // A private, frozen copy: later changes by the caller cannot alter compiled validators.
    const copy = JSON.parse(JSON.stringify(document)) as JsonSchema;
    this.documents.set(key, Object.freeze(copy));
    this.thirdParty += 1;
    this.perOperation ||= hasPerOperationAnnotations(copy, key);
  }

  /**
   * A validator for `url#/$defs/<defName>` (or the whole document when defName is omitted) built
   * from documents already held; synchronous, no loader involved.
   */
  validator(url: string, defName?: string, options: ViewOptions = {}): PayloadValidator {
    const { direction, operation } = viewOfDef(defName, options);
    const key = JSON.stringify(['single', direction, operation ?? null, url, defName ?? null]);
    const cached = this.validators.get(key);
    if (cached !== undefined) return cached;
    const doc = this.getSchema(url);
    if (doc === undefined) throw new SchemaRegistryError(`Schema ${url} is not held by the registry (not pinned, not added)`);
    if (defName !== undefined) requireDef(doc, url, defName);
    const view = this.view(direction, operation);
    this.syncView(view);
    const target = defName === undefined ? url : `${splitFragment(url).document}${pointerFragment(['$defs', defName])}`;
    const validator = view.wrap(this.compile(view, { $ref: target }, target));
    this.validators.set(key, validator);
    return validator;
  }

  /**
   * Validator for a negotiated capability: the root capability's `$defs[defName]` composed
   * (allOf) with every active extension's contribution. Loads missing documents through the
   * loader. The same composition (order of extensions irrelevant) returns the same function.
   */
  composeCapabilitySchema(
    rootName: string,
    rootSchemaUrl: string,
    extensions: readonly ExtensionSchemaRef[],
    defName: string,
    options: ViewOptions = {},
  ): Promise<PayloadValidator> {
    const { direction, operation } = viewOfDef(defName, options);
    const sorted = [...extensions].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.schemaUrl < b.schemaUrl ? -1 : 1));
    const key = JSON.stringify([
      'composed',
      direction,
      operation ?? null,
      rootName,
      rootSchemaUrl,
      defName,
      sorted.map((e) => [e.name, e.schemaUrl]),
    ]);
    const existing = this.compositions.get(key);
    if (existing !== undefined) return existing;
    const pending = this.compose(rootName, rootSchemaUrl, sorted, defName, direction, operation);
    this.compositions.set(key, pending);
    // A failed composition (e.g. an unreachable schema) may succeed later: do not cache failures.
    pending.catch(() => this.compositions.delete(key));
    return pending;
  }

  private async compose(
    rootName: string,
    rootSchemaUrl: string,
    extensions: readonly ExtensionSchemaRef[],
    defName: string,
    direction: Direction,
    operation: string | undefined,
  ): Promise<PayloadValidator> {
    const rootUrl = this.documentUrl(rootSchemaUrl);
    await Promise.all([rootUrl, ...extensions.map((e) => this.documentUrl(e.schemaUrl))].map((u) => this.ensure(u)));
    const rootDoc = this.documents.get(rootUrl) as JsonSchema;
    requireDef(rootDoc, rootUrl, defName);

    const allOf: JsonSchema[] = [{ $ref: `${rootUrl}${pointerFragment(['$defs', defName])}` }];
    for (const ext of extensions) {
      const url = this.documentUrl(ext.schemaUrl);
      const contribution = extensionContribution(this.documents.get(url) as JsonSchema, url, ext.name, rootName, defName);
      if (contribution !== undefined) allOf.push({ $ref: contribution });
    }
    const view = this.view(direction, operation);
    this.syncView(view);
    const label = `${rootName} ${defName} + [${extensions.map((e) => e.name).join(', ')}]`;
    return view.wrap(this.compile(view, { allOf }, label));
  }

  private compile(view: View, schema: JsonSchema, label: string): ValidateFunction {
    try {
      return view.ajv.compile(schema);
    } catch (cause) {
      throw new SchemaRegistryError(`Cannot compile the schema for ${label}: ${causeMessage(cause)}`, { cause });
    }
  }

  /**
   * The document a schema URL names, fragment dropped: the pinned document when the URL is another
   * spelling of it (comparable-url.ts), else the URL as written (fetched as written, too).
   */
  private documentUrl(schemaUrl: string): string {
    const document = splitFragment(schemaUrl).document;
    if (this.documents.has(document)) return document;
    return this.pinnedSpellings.get(comparableUrl(document) ?? document) ?? document;
  }

  /** Makes sure `url` and every document it references (transitively) are held. */
  private async ensure(url: string): Promise<void> {
    if (this.documents.has(url)) return;
    let pending = this.loading.get(url);
    if (pending === undefined) {
      pending = this.load(url).finally(() => this.loading.delete(url));
      this.loading.set(url, pending);
    }
    await pending;
  }

  private async load(url: string): Promise<void> {
    if (this.loader === undefined) {
      throw new SchemaRegistryError(`Schema ${url} is not pinned and no loader was supplied to fetch it`);
    }
    let fetched: object;
    try {
      fetched = await this.loader(url);
    } catch (cause) {
      throw new SchemaRegistryError(`Could not load schema ${url}: ${causeMessage(cause)}`, { cause });
    }
    this.addSchema(url, fetched);
    const doc = this.documents.get(url) as JsonSchema;
    await Promise.all(externalReferences(doc, url).map((ref) => this.ensure(ref)));
  }

  private view(direction: Direction, operation: string | undefined): View {
    // Each view costs an Ajv instance (~80 ms to build); the operation only matters once some
    // document varies by operation. Views created earlier stay correct for what they compiled.
    const op = this.perOperation ? operation : undefined;
    const key = `${direction}:${op ?? ''}`;
    let v = this.views.get(key);
    if (v === undefined) {
      v = new View(direction, op);
      this.views.set(key, v);
    }
    return v;
  }

  /** Adds to a view every held document it does not have yet (documents are only ever added). */
  private syncView(view: View): void {
    for (const [url, doc] of this.documents) {
      try {
        view.add(url, doc, this.pinned.has(url));
      } catch (error) {
        // Forget a third-party document Ajv rejects, so it cannot poison later compositions.
        if (!this.pinned.has(url) && this.documents.delete(url)) this.thirdParty -= 1;
        throw error;
      }
    }
  }
}

function hasPerOperationAnnotations(doc: JsonSchema, url: string): boolean {
  let found = false;
  walkSchema(doc, url, (node) => {
    for (const kw of ['ucp_request', 'ucp_response']) {
      const a = node[kw];
      if (isSchemaObject(a) && !('transition' in a)) found = true;
    }
  });
  return found;
}

function requireDef(doc: JsonSchema, url: string, defName: string): void {
  const defs = doc.$defs;
  if (!isSchemaObject(defs) || !isSchemaObject(defs[defName])) {
    throw new SchemaRegistryError(`Schema ${url} has no $defs[${JSON.stringify(defName)}]`);
  }
}

/**
 * The `$ref` (absolute, with fragment) an extension contributes to `defName`, or undefined when
 * it names per-shape additions that do not include this shape.
 */
export function extensionContribution(
  doc: JsonSchema,
  url: string,
  extName: string,
  rootName: string,
  defName: string,
): string | undefined {
  const defs = doc.$defs;
  const def = isSchemaObject(defs) ? defs[rootName] : undefined;
  if (!isSchemaObject(def)) {
    throw new SchemaRegistryError(
      `Extension ${extName} (${url}) has no $defs[${JSON.stringify(rootName)}]; an extension must describe its additions to the capability it extends under that key`,
    );
  }
  const shapes = isSchemaObject(def.$defs) ? def.$defs : undefined;
  if (shapes !== undefined && isSchemaObject(shapes[defName])) return `${url}${pointerFragment(['$defs', rootName, '$defs', defName])}`;
  if (shapes !== undefined && Object.keys(shapes).some((k) => SHAPE_NAME.test(k))) return undefined;
  return `${url}${pointerFragment(['$defs', rootName])}`;
}

/** Root `$id` must name the URL fetched; nested `$id`s must stay on its origin. */
function checkIdentifiers(url: string, doc: JsonSchema): void {
  if (doc.$id !== undefined) {
    if (typeof doc.$id !== 'string' || splitFragment(resolveUri(doc.$id, url)).document !== url) {
      throw new SchemaRegistryError(
        `Schema fetched from ${url} declares $id ${JSON.stringify(doc.$id)}; it must equal the URL it was fetched from`,
      );
    }
  }
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    throw new SchemaRegistryError(`Schema URL ${JSON.stringify(url)} is not an absolute URL`);
  }
  walkSchema(doc, url, (node, base) => {
    if (node === doc || typeof node.$id !== 'string') return;
    let nestedOrigin: string | undefined;
    try {
      nestedOrigin = new URL(base).origin;
    } catch {
      nestedOrigin = undefined;
    }
    if (nestedOrigin !== origin) {
      throw new SchemaRegistryError(
        `Schema ${url} embeds a resource with $id ${JSON.stringify(node.$id)} outside its own origin ${origin}`,
      );
    }
  });
}
