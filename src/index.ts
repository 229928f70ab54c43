/**
 * Root API of `ucp-location`: types, errors and pure helpers only (no SQLite, no pg, no HTTP
 * server), so a Platform can import it cheaply. Node-only pieces live at subpaths:
 * `ucp-location/client`, `ucp-location/server`, `ucp-location/store/sqlite`, `ucp-location/store/postgres`.
 */
export type {
  Amenities,
  Amenity,
  BBox,
  Coverage,
  CoverageArea,
  DailyHour,
  Day,
  ExceptionHour,
  Geo,
  Locality,
  Location,
  LocationRecord,
  LookupLocation,
  PostalAddress,
  Schedule,
} from './domain/location.js';
export { DAYS, toPublicLocation } from './domain/location.js';
export type {
  LocationDistance,
  LocationFilter,
  LocationServes,
  LookupRequest,
  LookupResponse,
  Message,
  PaginationRequest,
  PaginationResponse,
  SearchRequest,
  SearchResponse,
  UcpResponseMeta,
} from './domain/requests.js';
export { isOpenAt, nextChange, parseInstant, validateSchedule } from './domain/hours.js';
export type { ScheduleProblem, StateChange } from './domain/hours.js';
export { geodesicDistanceMeters, geodesicDestination } from './domain/geodesy.js';
export { checkAuthorityBinding } from './protocol/authority.js';
export type { AuthorityBinding } from './protocol/authority.js';
export { checkNamingConvention, isReverseDomainName, REVERSE_DOMAIN_PATTERN } from './protocol/names.js';
export { intersectCapabilities, responseCapabilities } from './protocol/negotiation.js';
export { selectVersion } from './protocol/versions.js';
export { validateProfile } from './protocol/profile.js';
export type { ProfileValidation } from './protocol/profile.js';
export type { CapabilityEntity, ServiceBinding, UcpEntity, UcpProfile, UcpProfileBody } from './protocol/types.js';
export { LOOKUP_CAPABILITY, SEARCH_CAPABILITY, UCP_VERSION } from './protocol/types.js';
export {
  ConfigError,
  DataValidationError,
  ForbiddenError,
  InvalidInstantError,
  RateLimitedError,
  ServiceUnavailableError,
  StoreError,
  UcpNegotiationError,
  UcpRequestError,
  UcpWireError,
} from './errors.js';
export type { DataIssue, NegotiationErrorCode, RequestErrorCode, StoreErrorCode } from './errors.js';
