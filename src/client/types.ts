/** Wire types a Platform handles, re-exported so `ucp-location/client` is self-sufficient. */
export type { Geo, Location, LookupLocation } from '../domain/location.js';
export type { LookupRequest, LookupResponse, Message, SearchRequest, SearchResponse } from '../domain/requests.js';
