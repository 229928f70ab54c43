/**
 * Test doubles for the transport's collaborators: a scripted LocationOperations, minimal request
 * validators and tool schemas, and a valid Platform profile document. Only for tests that exercise
 * the HTTP/MCP plumbing itself; end-to-end tests (test/e2e) use the real engine and schemas.
 */
import { UcpRequestError } from '../../errors.js';
import type { Location } from '../../domain/location.js';
import type { LookupRequest, LookupResult, SearchRequest, SearchResult } from '../../domain/requests.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY, UCP_VERSION } from '../../protocol/types.js';
import type { UcpProfile } from '../../protocol/types.js';
import type { ServerConfig } from '../../config.js';
import { createLogger } from '../../logging.js';
import { PlatformProfileResolver } from '../../protocol/profile-resolver.js';
import type { UcpAppParts } from '../app.js';
import type { ToolSchemas } from '../mcp/tools.js';
import type { LocationOperations, RequestValidators } from '../operations.js';
import { BudgetLimiter } from '../rate-limits.js';

export class ScriptedService implements LocationOperations {
  /** When set, the next calls fail with it. */
  failWith: Error | undefined;
  /** When set, searches wait for it before answering (in-flight requests during shutdown). */
  hold: Promise<void> | undefined;
  readonly calls: { op: 'search' | 'lookup'; request: unknown }[] = [];
  /** When set, what searches answer with (e.g. documents sealed as the in-memory index seals them). */
  searchLocations: Location[] | undefined;

  async search(request: SearchRequest): Promise<SearchResult> {
    this.calls.push({ op: 'search', request });
    if (this.hold) await this.hold;
    if (this.failWith) throw this.failWith;
    return {
      locations: this.searchLocations ?? [{ id: 'loc_valley_grocers', name: 'Valley Grocers' }],
      pagination: { has_next_page: false },
    };
  }

  lookup(request: LookupRequest): Promise<LookupResult> {
    this.calls.push({ op: 'lookup', request });
    if (this.failWith) return Promise.reject(this.failWith);
    return Promise.resolve({ locations: request.ids.map((id) => ({ id, name: `Store ${id}`, inputs: [{ id }] })) });
  }
}

export const fakeValidators: RequestValidators = {
  toolArguments(tool, args) {
    const location = (args as { location?: unknown }).location;
    try {
      return { location: tool === 'search_locations' ? fakeValidators.search(location) : fakeValidators.lookup(location) };
    } catch (err) {
      if (!(err instanceof UcpRequestError)) throw err;
      throw new UcpRequestError(err.code, err.message, `/location${err.pointer}`);
    }
  },
  search(value) {
    const r = value as SearchRequest;
    if (r.distance !== undefined && r.distance.max > 1000) {
      throw new UcpRequestError(
        'radius_too_large',
        'distance.max exceeds 1000 m, the largest radius this Business honours.',
        '/distance/max',
      );
    }
    return r;
  },
  lookup(value) {
    const r = value as Partial<LookupRequest>;
    if (!Array.isArray(r.ids) || r.ids.length === 0) throw new UcpRequestError('invalid_request', 'ids must be a non-empty array.', '/ids');
    return r as LookupRequest;
  },
};

const wrapper = (inner: Record<string, unknown>): Record<string, unknown> => ({
  type: 'object',
  properties: { meta: { type: 'object' }, location: inner },
  required: ['meta', 'location'],
});

export const fakeToolSchemas: ToolSchemas = {
  search_locations: { inputSchema: wrapper({ type: 'object' }), outputSchema: { type: 'object', required: ['ucp'] } },
  lookup_locations: { inputSchema: wrapper({ type: 'object', required: ['ids'] }), outputSchema: { type: 'object', required: ['ucp'] } },
};

/** A platform profile that validates (loopback http allowed) and offers the given capabilities. */
export function platformProfile(
  capabilities: readonly string[] = [SEARCH_CAPABILITY, LOOKUP_CAPABILITY],
  version = UCP_VERSION,
): UcpProfile {
  const caps: UcpProfile['ucp']['capabilities'] = {};
  for (const name of capabilities) {
    const leaf = name.split('.').pop() ?? name;
    caps[name] = [
      {
        version,
        spec: `https://ucp.dev/${version}/specification/common/location/${leaf}`,
        schema: `https://ucp.dev/${version}/schemas/common/location_${leaf}.json`,
      },
    ];
  }
  return {
    ucp: {
      version,
      services: {
        'dev.ucp.common': [
          {
            version,
            spec: `https://ucp.dev/${version}/specification/overview`,
            transport: 'mcp',
            schema: `https://ucp.dev/${version}/services/common/mcp.openrpc.json`,
          },
        ],
      },
      capabilities: caps,
      payment_handlers: {},
    },
  };
}

/** App parts around a scripted service: fake validators and schemas, a real loopback profile resolver and limiter. */
export function fakeAppParts(service: LocationOperations, config: ServerConfig): UcpAppParts {
  return {
    service,
    validate: fakeValidators,
    toolSchemas: fakeToolSchemas,
    profileSource: new PlatformProfileResolver({ allowLoopback: true }),
    limiter: new BudgetLimiter(config.rateLimits),
    config,
    logger: createLogger({ level: 'silent' }),
    serverInfo: { name: 'ucp-location', version: '0.0.0-test' },
  };
}
