/**
 * The MCP tools of the Location capability (seed 000 "Tools", R-M2): one per advertised capability,
 * with the seed's descriptions, `inputSchema` = the `{meta, location}` arguments wrapper and
 * `outputSchema` = the UCP response. Built once per process; each request only looks them up.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
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

/** Descriptions are the seed's wording (seed 000 tools table; SCHEMAS.md §2 #7, #8). */
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

export function buildToolCatalog(advertised: readonly LocationCapability[], schemas: ToolSchemas): ToolCatalog {
  const specs = TOOL_SPECS.filter((s) => advertised.includes(s.capability));
  const list: Tool[] = specs.map((s) => ({
    name: s.name,
    title: s.title,
    description: s.description,
    inputSchema: schemas[s.name].inputSchema as Tool['inputSchema'],
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
