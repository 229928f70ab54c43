// STUB — owned by the engine helper. The use cases: the only place where domain meets store.
import type { LookupRequest, LookupResult, SearchRequest, SearchResult } from './domain/requests.js';
import type { LocationStore } from './store/store.js';

export interface EngineLimits {
  /** Page size when `pagination.limit` is absent (R-S9). */
  defaultPageSize: number;
  /** Largest page returned; larger `limit` values are served in pages of this size. */
  maxPageSize: number;
  /** Largest `distance.max` honoured, metres; larger → UcpRequestError `radius_too_large` (never clamped). */
  maxRadiusMeters: number;
  /** Total Locations reachable by a bounded browse (no distance/serves operand), across all pages. */
  browseCap: number;
  /** Lookup batch maximum of distinct ids (R-L3; ≥ 10). */
  lookupBatchMax: number;
}

export const DEFAULT_LIMITS: EngineLimits = {
  defaultPageSize: 10,
  maxPageSize: 50,
  maxRadiusMeters: 500_000,
  browseCap: 100,
  lookupBatchMax: 50,
};

export interface ServiceOptions {
  limits?: Partial<EngineLimits>;
  /** HMAC key for cursors; instances sharing a store must share it. */
  cursorSecret: string;
}

export class LocationService {
  readonly limits: EngineLimits;
  constructor(readonly store: LocationStore, options: ServiceOptions) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    void options.cursorSecret;
  }

  /** Throws UcpRequestError for requests the Business cannot honour. */
  async search(request: SearchRequest): Promise<SearchResult> {
    void request;
    throw new Error('not implemented');
  }

  async lookup(request: LookupRequest): Promise<LookupResult> {
    void request;
    throw new Error('not implemented');
  }
}
