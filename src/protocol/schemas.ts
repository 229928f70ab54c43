/**
 * Entry point of the schema layer: pinned `dev.ucp.*` documents of release 2026-08-25, the
 * registry that composes capability schemas with negotiated extensions and compiles cached
 * validators (Ajv 2020 + ajv-formats), actionable validation messages, and self-contained
 * bundles for consumers that cannot follow cross-document `$ref`s.
 */
import { ANNOTATION_KEYWORDS, type Direction } from './schema-annotations.js';
import { bundleSchemas, type SchemaBundle } from './schema-bundle.js';
import { SchemaRegistry, SchemaRegistryError } from './schema-registry.js';

export {
  ERROR_RESPONSE_SCHEMA_URL,
  LOCATION_LOOKUP_SCHEMA_URL,
  LOCATION_SEARCH_SCHEMA_URL,
  MCP_TOOL_CALL_SCHEMA_URL,
  UCP_METADATA_SCHEMA_URL,
  UCP_SCHEMA_BASE,
  pinnedSchemaDocuments,
} from './pinned-schemas.js';
export { SchemaRegistry, SchemaRegistryError, extensionContribution, viewOfDef } from './schema-registry.js';
export type {
  ExtensionSchemaRef,
  PayloadValidator,
  SchemaLoader,
  SchemaRegistryOptions,
  ValidationResult,
  ViewOptions,
} from './schema-registry.js';
export { resolveAnnotations, visibilityOf } from './schema-annotations.js';
export type { Direction, Visibility } from './schema-annotations.js';
export { explainValidationErrors, prefixIssues, summarizeIssues } from './validation-errors.js';
export type { SchemaIssue } from './validation-errors.js';
export type { SchemaBundle } from './schema-bundle.js';
export type { JsonSchema } from './schema-walk.js';

let shared: SchemaRegistry | undefined;

/**
 * The process-wide registry of pinned documents only (no loader). Validators compiled from it
 * are shared by every caller; create your own `SchemaRegistry` to add third-party schemas.
 */
export function pinnedSchemaRegistry(): SchemaRegistry {
  shared ??= new SchemaRegistry();
  return shared;
}

/**
 * Bundles `targets` (key → absolute schema URI, optionally with a `#/$defs/...` fragment) as
 * seen in one direction: annotations resolved, then stripped, like every other project keyword.
 */
export function bundleSchema(
  targets: Readonly<Record<string, string>>,
  view: { readonly direction: Direction; readonly operation?: string },
  registry: SchemaRegistry = pinnedSchemaRegistry(),
): SchemaBundle {
  return bundleSchemas(
    targets,
    (url) => {
      const doc = registry.resolvedSchema(url, view);
      if (doc === undefined) throw new SchemaRegistryError(`Cannot bundle: schema ${url} is not held by the registry`);
      return doc;
    },
    { stripKeywords: ANNOTATION_KEYWORDS },
  );
}
