/**
 * The MCP tools of the Location capability (seed 000 "Tools", R-M2): one per advertised capability,
 * `inputSchema` = the `{meta, location}` arguments wrapper and `outputSchema` = the UCP response.
 * Built once per process; each request only looks them up.
 *
 * Descriptions open with the seed's sentence and go on for the reader that actually uses them, a
 * language model in an MCP host: what each operand does, its units and this Business's limits,
 * the profile URL(s) it pre-approves, and the amenity ids its data uses (also as `examples` in the
 * input schema, since a model can only pick ids it has seen).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../../config.js';
import { bundleSchema, ERROR_RESPONSE_SCHEMA_URL } from '../../protocol/schemas.js';
import type { JsonSchema } from '../../protocol/schemas.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY } from '../../protocol/types.js';
import type { LocationCapability } from '../business-profile.js';
import type { Operation } from '../operations.js';

export type ToolName = 'search_locations' | 'lookup_locations';

/** Self-contained JSON Schemas (no cross-file `$ref`: the SDK does not follow them). */
export interface ToolSchemaBundle {
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
}

export type ToolSchemas = Record<ToolName, ToolSchemaBundle>;

interface ToolSpec {
  name: ToolName;
  capability: LocationCapability;
  operation: Operation;
  title: string;
  description: string;
}

/** First sentences are the seed's wording (seed 000 tools table; SCHEMAS.md §2 #7, #8). */
const TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: 'search_locations',
    capability: SEARCH_CAPABILITY,
    operation: 'search',
    title: 'Search Locations',
    description: 'Search for Locations using text, explicit spatial relations, and filters.',
  },
  {
    name: 'lookup_locations',
    capability: LOOKUP_CAPABILITY,
    operation: 'lookup',
    title: 'Lookup Locations',
    description: 'Batch lookup Locations by identifier, optionally refined by explicit spatial relations and filters.',
  },
];

export interface ToolCatalog {
  /** The `tools/list` result, shared by every request (treat as read-only). */
  readonly list: readonly Tool[];
  /** Operation behind a tool name; undefined for unknown or unadvertised tools. */
  operationOf(name: string): Operation | undefined;
  readonly names: readonly ToolName[];
}

/** What callers are told beyond the schemas; built at start from the configuration and the data. */
export interface CallerGuidance {
  /** Profile URLs pre-approved and announced to callers (see transport/profile-trust.ts). */
  profileUrls: readonly string[];
  /** Amenity ids the dataset's public Locations use, most used first. */
  amenityIds: readonly string[];
}

export interface ToolGuidance extends CallerGuidance {
  limits: ServerConfig['limits'];
}

/** Amenity ids named in descriptions and schema examples; a catalogue, not an inventory. */
const MAX_AMENITY_EXAMPLES = 30;

export function buildToolCatalog(advertised: readonly LocationCapability[], schemas: ToolSchemas, guidance?: ToolGuidance): ToolCatalog {
  const specs = TOOL_SPECS.filter((s) => advertised.includes(s.capability));
  const list: Tool[] = specs.map((s) => ({
    name: s.name,
    title: s.title,
    description: guidance === undefined ? s.description : describeTool(s, guidance),
    inputSchema: (guidance === undefined
      ? schemas[s.name].inputSchema
      : withExamples(schemas[s.name].inputSchema, guidance)) as Tool['inputSchema'],
    outputSchema: acceptingErrorResponse(schemas[s.name].outputSchema) as NonNullable<Tool['outputSchema']>,
    // Read-only lookups over public data: safe to retry, no side effects.
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }));
  const byName = new Map<string, Operation>(specs.map((s) => [s.name, s.operation]));
  return {
    list,
    operationOf: (name) => byName.get(name),
    names: specs.map((s) => s.name),
  };
}

/** The seed's sentence, then the arguments, operand by operand, with units and this Business's limits. */
export function describeTool(spec: Pick<ToolSpec, 'operation' | 'description'>, guidance: ToolGuidance): string {
  const { limits } = guidance;
  const urls = guidance.profileUrls;
  const profile =
    urls.length === 0
      ? 'meta["ucp-agent"].profile is the https URL of your published UCP platform profile.'
      : `meta["ucp-agent"].profile: this business pre-approves ${urls.length === 1 ? `the profile URL ${urls[0]} — send exactly that` : `these profile URLs: ${urls.join(', ')} — send one of them`}.`;
  const amenities = guidance.amenityIds.slice(0, MAX_AMENITY_EXAMPLES);
  const operands = [
    `- distance: {"center": {"latitude", "longitude"} in WGS 84 decimal degrees, "max": radius in metres (inclusive, at most ${limits.maxRadiusMeters})}. Keeps Locations within that geodesic distance; results are not ordered by distance.`,
    '- serves: exactly one target the Location must be able to serve: {"point": {"latitude", "longitude"}} or {"address": {"address_country" (ISO 3166-1 alpha-2), "address_region", "postal_code"}}.',
    '- filters.hours.open_at: an RFC 3339 instant with Z or a numeric offset, e.g. "2026-11-30T10:00:00-08:00"; keeps Locations open at that instant in their own time zone (unknown hours never count as open).',
    `- filters.amenities: amenity ids; a Location must have every one (exact ids, no prefixes).${amenities.length === 0 ? '' : ` Ids this business uses: ${amenities.join(', ')}.`}`,
    '- filters.items: item ids; every one must be available at the Location.',
    '- context, signals: hints only; they never filter.',
    '- context.language: a BCP 47 tag such as "en" or "fr-CA"; names, amenity descriptions and exception titles come in that language where this business has them (fr-CA falls back to fr, then to the Location\'s own language).',
  ];
  const lines =
    spec.operation === 'search'
      ? [
          spec.description,
          '',
          'Arguments: {"meta": {"ucp-agent": {"profile": "<platform profile URL>"}}, "location": {<search request>}}.',
          profile,
          `location members (all optional; those given combine with AND; with neither distance nor serves the answer is a bounded browse of at most ${limits.browseCap} Locations):`,
          '- query: free text matched against names, keywords, addresses and amenity labels; it narrows and ranks, never widens another operand.',
          ...operands,
          `- pagination: {"limit": page size from 1 (default ${limits.defaultPageSize}, at most ${limits.maxPageSize} per page), "cursor": the pagination.cursor of the previous answer}.`,
          'Other members are ignored and named in a warning message (code unknown_field); an unknown filters member is refused.',
        ]
      : [
          spec.description,
          '',
          'Arguments: {"meta": {"ucp-agent": {"profile": "<platform profile URL>"}}, "location": {"ids": [...], ...}}.',
          profile,
          'location members:',
          `- ids (required): Location ids or aliases; at most ${limits.lookupBatchMax} distinct ids are processed per call (the rest are reported in a batch_limit_applied message). Each returned Location lists in "inputs" the ids that reached it; ids not found are reported in not_found messages.`,
          'Optional refinements, applied after the ids are resolved and combined with AND:',
          ...operands,
          'Other members are ignored and named in a warning message (code unknown_field); an unknown filters member is refused.',
        ];
  return lines.join('\n');
}

/**
 * A copy of the input schema with `examples`: the announced profile URLs on
 * `meta["ucp-agent"].profile` and the dataset's amenity ids on `filters.amenities`.
 */
function withExamples(schema: Record<string, unknown>, guidance: CallerGuidance): Record<string, unknown> {
  const copy = structuredClone(schema);
  const defs = copy['$defs'];
  if (defs === null || typeof defs !== 'object') return copy;
  const amenities = guidance.amenityIds.slice(0, MAX_AMENITY_EXAMPLES);
  for (const def of Object.values(defs as Record<string, unknown>)) {
    const properties = propertiesOf(def);
    const profile = properties?.['profile'];
    if (isSchemaObject(profile) && guidance.profileUrls.length > 0) {
      profile['examples'] = [...guidance.profileUrls];
      profile['description'] = `${textOf(profile['description'])} Pre-approved here: ${guidance.profileUrls.join(', ')}.`.trim();
    }
    const list = properties?.['amenities'];
    if (isSchemaObject(list) && list['type'] === 'array' && amenities.length > 0) {
      list['examples'] = [amenities.slice(0, 2)];
      const items = list['items'];
      if (isSchemaObject(items)) items['examples'] = amenities;
      list['description'] = `${textOf(list['description'])} Amenity ids this business uses: ${amenities.join(', ')}.`.trim();
    }
  }
  return copy;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function propertiesOf(node: unknown): Record<string, unknown> | undefined {
  if (!isSchemaObject(node)) return undefined;
  const properties = node['properties'];
  return isSchemaObject(properties) ? properties : undefined;
}

function isSchemaObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The tool's `outputSchema` widened to `anyOf: [response, error_response]`.
 *
 * `capabilities_incompatible` is a *successful* tool result whose `structuredContent` is an
 * `error_response` (R-G5; SCHEMAS.md §3: clients should accept either shape). MCP clients check
 * `structuredContent` against `outputSchema` — the official SDK's `callTool` throws on a mismatch —
 * so a schema describing only the normal response would turn that business outcome into a client
 * error. The response keeps its root keywords; the bundled definitions are merged (a name shared
 * by both bundles must mean the same schema, which holds for bundles of the same pinned release).
 */
export function acceptingErrorResponse(output: Record<string, unknown>): Record<string, unknown> {
  const { $schema, $defs, ...response } = output;
  const error = errorResponseBundle();
  const defs: Record<string, unknown> = { ...(($defs as Record<string, unknown> | undefined) ?? {}) };
  for (const [name, def] of Object.entries(error.defs)) {
    if (name in defs && JSON.stringify(defs[name]) !== JSON.stringify(def)) {
      throw new Error(`Tool output schema: definition "${name}" differs between the response and error_response bundles`);
    }
    defs[name] = def;
  }
  delete response['type'];
  return {
    ...($schema === undefined ? {} : { $schema }),
    type: 'object',
    anyOf: [response, { $ref: error.ref }],
    $defs: defs,
  };
}

let errorBundle: { ref: string; defs: Readonly<Record<string, JsonSchema>> } | undefined;

function errorResponseBundle(): { ref: string; defs: Readonly<Record<string, JsonSchema>> } {
  if (errorBundle === undefined) {
    const bundle = bundleSchema({ error: ERROR_RESPONSE_SCHEMA_URL }, { direction: 'response' });
    const ref = bundle.refs['error'];
    if (ref === undefined) throw new Error('error_response could not be bundled');
    errorBundle = { ref, defs: bundle.defs };
  }
  return errorBundle;
}
