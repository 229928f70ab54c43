/**
 * Schema validation of Location payloads against the pinned release schemas, for the Business
 * (requests: throw `UcpRequestError` with the pointer of the first problem, relative to the
 * domain request) and for Platforms and tests (responses: a result, never a throw). Also the
 * self-contained MCP tool schemas (R-M2) and validation of MCP tool arguments (R-M1, R-M3).
 */
import { UcpRequestError } from '../errors.js';
import { isRecord } from '../protocol/guards.js';
import {
  ERROR_RESPONSE_SCHEMA_URL,
  LOCATION_LOOKUP_SCHEMA_URL,
  LOCATION_SEARCH_SCHEMA_URL,
  MCP_TOOL_CALL_SCHEMA_URL,
  bundleSchema,
  pinnedSchemaRegistry,
  prefixIssues,
  summarizeIssues,
  type JsonSchema,
  type PayloadValidator,
  type SchemaIssue,
} from '../protocol/schemas.js';
import { deepFreeze } from '../protocol/schema-walk.js';
import type { LookupRequest, LookupResponse, Message, SearchRequest, SearchResponse, UcpResponseMeta } from './requests.js';

export type SchemaCheck<T> =
  { readonly valid: true; readonly value: T } | { readonly valid: false; readonly errors: readonly SchemaIssue[] };

/** Body of a result that failed as a whole (e.g. `capabilities_incompatible`), `ucp.status: "error"`. */
export interface ErrorResponseBody {
  ucp: UcpResponseMeta;
  messages: Message[];
  continue_url?: string;
}

export type LocationToolName = 'search_locations' | 'lookup_locations';

/** `arguments.meta` of a UCP tools/call. */
export interface ToolMeta {
  'ucp-agent': { profile: string; [k: string]: unknown };
  'idempotency-key'?: string;
  [k: string]: unknown;
}

export interface ToolArguments<R> {
  meta: ToolMeta;
  location: R;
}

export interface McpToolSchema {
  /** The `{meta, location}` arguments wrapper; `type: "object"` at the top, every `$ref` local. */
  readonly inputSchema: JsonSchema;
  /** The UCP response payload carried in `structuredContent`. */
  readonly outputSchema: JsonSchema;
}

export type McpToolSchemas = Readonly<Record<LocationToolName, McpToolSchema>>;

const SEARCH_DEFS = { request: 'search_request', response: 'search_response' } as const;
const LOOKUP_DEFS = { request: 'lookup_request', response: 'lookup_response' } as const;

let validators:
  | {
      searchRequest: PayloadValidator;
      lookupRequest: PayloadValidator;
      searchResponse: PayloadValidator;
      lookupResponse: PayloadValidator;
      errorResponse: PayloadValidator;
      meta: PayloadValidator;
    }
  | undefined;

/** Compiled once per process, on first use. */
function compiled(): NonNullable<typeof validators> {
  if (validators !== undefined) return validators;
  const r = pinnedSchemaRegistry();
  validators = {
    searchRequest: r.validator(LOCATION_SEARCH_SCHEMA_URL, SEARCH_DEFS.request),
    lookupRequest: r.validator(LOCATION_LOOKUP_SCHEMA_URL, LOOKUP_DEFS.request),
    searchResponse: r.validator(LOCATION_SEARCH_SCHEMA_URL, SEARCH_DEFS.response),
    lookupResponse: r.validator(LOCATION_LOOKUP_SCHEMA_URL, LOOKUP_DEFS.response),
    errorResponse: r.validator(ERROR_RESPONSE_SCHEMA_URL),
    meta: r.validator(MCP_TOOL_CALL_SCHEMA_URL, 'meta', { direction: 'request' }),
  };
  return validators;
}

function invalid(what: string, issues: readonly SchemaIssue[]): UcpRequestError {
  const first = issues[0] ?? { pointer: '', message: 'is invalid' };
  return new UcpRequestError('invalid_request', `Invalid ${what}: ${summarizeIssues(issues)}`, first.pointer, {
    details: issues,
  });
}

function check<T>(validator: PayloadValidator, input: unknown): SchemaCheck<T> {
  const r = validator(input);
  return r.valid ? { valid: true, value: input as T } : { valid: false, errors: r.errors };
}

/** The request typed, or `UcpRequestError('invalid_request')` whose pointer is relative to the request (`/distance/max`). */
export function validateSearchRequest(input: unknown): SearchRequest {
  const r = compiled().searchRequest(input);
  if (!r.valid) throw invalid('search request', r.errors);
  return input as SearchRequest;
}

/** The request typed, or `UcpRequestError('invalid_request')` whose pointer is relative to the request (`/ids`). */
export function validateLookupRequest(input: unknown): LookupRequest {
  const r = compiled().lookupRequest(input);
  if (!r.valid) throw invalid('lookup request', r.errors);
  return input as LookupRequest;
}

export function validateSearchResponse(input: unknown): SchemaCheck<SearchResponse> {
  return check<SearchResponse>(compiled().searchResponse, input);
}

export function validateLookupResponse(input: unknown): SchemaCheck<LookupResponse> {
  return check<LookupResponse>(compiled().lookupResponse, input);
}

/** For results that failed as a whole; clients should accept this shape as well as the normal response. */
export function validateErrorResponse(input: unknown): SchemaCheck<ErrorResponseBody> {
  return check<ErrorResponseBody>(compiled().errorResponse, input);
}

/**
 * Validates MCP `tools/call` arguments `{meta, location}`; pointers are relative to `arguments`
 * (`/meta/ucp-agent/profile`, `/location/distance/max`). Throws `UcpRequestError('invalid_request')`.
 */
export function validateToolArguments(tool: 'search_locations', args: unknown): ToolArguments<SearchRequest>;
export function validateToolArguments(tool: 'lookup_locations', args: unknown): ToolArguments<LookupRequest>;
export function validateToolArguments(tool: LocationToolName, args: unknown): ToolArguments<SearchRequest | LookupRequest>;
export function validateToolArguments(tool: LocationToolName, args: unknown): ToolArguments<SearchRequest | LookupRequest> {
  const what = `${tool} arguments`;
  if (!isRecord(args)) {
    const got = args === null ? 'null' : Array.isArray(args) ? 'array' : typeof args;
    throw invalid(what, [{ pointer: '', message: `must be an object with "meta" and "location"; got ${got}` }]);
  }
  const { meta, location } = args;
  const issues: SchemaIssue[] = [];
  if (meta === undefined) {
    issues.push({
      pointer: '',
      message: 'missing required property "meta" (an object carrying "ucp-agent": {"profile": "<Platform profile URL>"})',
    });
  } else {
    const r = compiled().meta(meta);
    if (!r.valid) issues.push(...prefixIssues(r.errors, ['meta']));
  }
  const request = tool === 'search_locations' ? compiled().searchRequest : compiled().lookupRequest;
  if (location === undefined) {
    issues.push({
      pointer: '',
      message: `missing required property "location" (the ${tool === 'search_locations' ? 'search' : 'lookup'} request)`,
    });
  } else {
    const r = request(location);
    if (!r.valid) issues.push(...prefixIssues(r.errors, ['location']));
  }
  if (issues.length > 0) throw invalid(what, issues);
  return { meta: meta as ToolMeta, location: location as SearchRequest | LookupRequest };
}

let toolSchemas: McpToolSchemas | undefined;

function toolSchema(url: string, defs: { request: string; response: string }, operation: string): McpToolSchema {
  const input = bundleSchema(
    { meta: `${MCP_TOOL_CALL_SCHEMA_URL}#/$defs/meta`, location: `${url}#/$defs/${defs.request}` },
    { direction: 'request', operation },
  );
  const output = bundleSchema({ payload: `${url}#/$defs/${defs.response}` }, { direction: 'response', operation });
  return {
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { meta: { $ref: input.refs.meta }, location: { $ref: input.refs.location } },
      required: ['meta', 'location'],
      $defs: input.defs,
    },
    outputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $ref: output.refs.payload,
      $defs: output.defs,
    },
  };
}

/**
 * `inputSchema` / `outputSchema` of the two Location tools, each one self-contained JSON Schema
 * (the MCP SDK does not follow cross-document `$ref`s). Built once; frozen.
 */
export function mcpToolSchemas(): McpToolSchemas {
  toolSchemas ??= deepFreeze({
    search_locations: toolSchema(LOCATION_SEARCH_SCHEMA_URL, SEARCH_DEFS, 'search'),
    lookup_locations: toolSchema(LOCATION_LOOKUP_SCHEMA_URL, LOOKUP_DEFS, 'lookup'),
  });
  return toolSchemas;
}
