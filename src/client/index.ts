/**
 * `ucp-location/client`: the Platform SDK for UCP Location (release 2026-08-25).
 *
 * ```ts
 * import { UcpLocationClient, isOpenAt } from 'ucp-location/client';
 * const client = await UcpLocationClient.discover('https://shop.example', {
 *   platformProfileUrl: 'https://platform.example/ucp/profile.json',
 * });
 * const page = await client.search({ query: 'grocery', distance: { center: { latitude: 37.79, longitude: -122.39 }, max: 5000 } });
 * for (const location of page.locations) console.log(location.name, isOpenAt(location, new Date()));
 * await client.close();
 * ```
 */
export { UcpLocationClient, PaginationLoopError } from './client.js';
export type { DiscoverOptions, LookupRefinements, NegotiatedState, SearchOptions, TransportPreference, TrustOptions } from './client.js';
export type { BindingName, Operation } from './caller.js';
export type { EntityVerdict, ProfileSource, RejectedEntityReport, TransportOffer } from './negotiate.js';
export {
  AnswerSignatureError,
  BusinessError,
  CapabilitiesIncompatibleError,
  DiscoveryError,
  ProfileError,
  RequestValidationError,
  ResponseValidationError,
  TransportUnavailableError,
  UcpClientError,
  VersionUnsupportedError,
} from './errors.js';
export type { ClientErrorCode, ErrorSubject } from './errors.js';
export { distanceFrom, isOpenAt, nextChange } from './location-helpers.js';
export type { Instant, StateChange } from './location-helpers.js';
export { buildPlatformProfile } from './platform-profile.js';
export type { PlatformProfileOptions } from './platform-profile.js';
export { businessProfileUrl, PROFILE_PATH } from './discovery.js';
export type { Geo, Location, LookupLocation, LookupRequest, LookupResponse, Message, SearchRequest, SearchResponse } from './types.js';
// Tools a Platform builds with: the loopback server that serves its own profile to a Business on
// this machine (the CLI's profile-server verb, the conformance checker), and the guarded HTTP
// agent for one endpoint that the checker sends its raw probes through.
export { serveProfilesOnLoopback } from './loopback-profile-server.js';
export type { LoopbackProfileOptions, LoopbackProfileServer } from './loopback-profile-server.js';
export { openEndpointAgent } from './endpoint-agent.js';
// Message signatures (R-SIG1–R-SIG3): a Platform loads its key file and passes `signing` as `signingKey`.
export { loadSigningKeyFile } from '../protocol/signatures/index.js';
export type { PublicJwk, SigningKey, SigningKeySet, SignatureErrorCode } from '../protocol/signatures/index.js';
export type { EndpointAgent, EndpointAgentOptions } from './endpoint-agent.js';
