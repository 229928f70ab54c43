/**
 * Wire shapes of the Location search and lookup requests/responses (seed 000 + SCHEMAS.md §2
 * "Reconciled TypeScript shapes"). The JSON Schemas under `schemas/2026-08-25/` are the source
 * of truth for validation; these types describe what has already passed validation.
 */
import type { Geo, Locality, Location, LookupLocation } from './location.js';

export interface LocationDistance {
  center: Geo;
  /** Inclusive maximum geodesic distance, metres. */
  max: number;
}

/** Exactly one key: `point`, `address`, or a negotiated reverse-domain extension target. */
export type LocationServes = { point: Geo } | { address: Locality } | Record<string, unknown>;

export interface LocationFilter {
  hours?: { open_at: string };
  amenities?: string[];
  items?: string[];
  [custom: string]: unknown;
}

export interface PaginationRequest {
  cursor?: string;
  limit?: number;
}

export interface PaginationResponse {
  has_next_page: boolean;
  cursor?: string;
  total_count?: number;
}

export interface SearchRequest {
  query?: string;
  context?: Record<string, unknown>;
  signals?: Record<string, unknown>;
  distance?: LocationDistance;
  serves?: LocationServes;
  filters?: LocationFilter;
  pagination?: PaginationRequest;
}

export interface LookupRequest {
  ids: string[];
  distance?: LocationDistance;
  serves?: LocationServes;
  filters?: LocationFilter;
  context?: Record<string, unknown>;
  signals?: Record<string, unknown>;
}

export type MessageType = 'error' | 'warning' | 'info';

export interface Message {
  type: MessageType;
  code?: string;
  content: string;
  path?: string;
  content_type?: 'plain' | 'markdown';
  severity?: 'recoverable' | 'requires_buyer_input' | 'requires_buyer_review' | 'unrecoverable';
}

export interface UcpResponseMeta {
  version: string;
  status?: 'success' | 'error';
  capabilities?: Record<string, { version: string; [k: string]: unknown }[]>;
}

/** How the answer is presented, beside the request body: what only a binding's headers say. */
export interface PresentationOptions {
  /** The REST `Accept-Language` header; `context.language` takes precedence over it (R-C3). */
  acceptLanguage?: string;
}

/** Result of the engine before the transport adds the `ucp` envelope. */
export interface SearchResult {
  locations: Location[];
  pagination: PaginationResponse;
  messages?: Message[];
  /**
   * Not part of the payload: the languages of the answer's strings (R-C3), which a transport sends
   * as REST `Content-Language`. Absent or empty when no string's language is known.
   */
  contentLanguage?: string[];
}

export interface LookupResult {
  locations: LookupLocation[];
  messages?: Message[];
  /** As in SearchResult: not part of the payload. */
  contentLanguage?: string[];
}

export interface SearchResponse extends SearchResult {
  ucp: UcpResponseMeta;
}

export interface LookupResponse extends LookupResult {
  ucp: UcpResponseMeta;
}
