/**
 * Turns a `SafeFetchError` (protocol/safe-fetch.ts) into the SDK's error for the document that
 * was being fetched. The fetcher's own message is operator-facing and precise (it may name the
 * address a host resolved to), which is what a Platform developer needs here; a hint on what to
 * do is appended.
 */
import type { SafeFetchError } from '../protocol/safe-fetch.js';
import { DiscoveryError, ProfileError, type ErrorSubject } from './errors.js';

const WHAT: Readonly<Record<ErrorSubject, string>> = {
  business_profile: 'the business profile',
  platform_profile: 'the platform profile',
  leaf_profile: 'the version-specific business profile',
  schema: 'an extension schema',
  endpoint: 'the business endpoint',
};

export function fromSafeFetchError(error: SafeFetchError, subject: ErrorSubject, url: string): DiscoveryError | ProfileError {
  const what = WHAT[subject];
  const options = { cause: error, url };
  switch (error.reason) {
    case 'invalid_url':
    case 'unsupported_scheme':
    case 'userinfo':
    case 'insecure_http':
      return new DiscoveryError(
        'invalid_url',
        subject,
        `Cannot fetch ${what}: ${error.message}.${error.reason === 'insecure_http' ? ' For a business on this machine, pass --allow-loopback (local development only).' : ''}`,
        options,
      );
    case 'refused_address':
      return new DiscoveryError(
        'address_refused',
        subject,
        `Refusing to fetch ${what}: ${error.message}. UCP discovery never connects to private, loopback or link-local addresses (use --allow-loopback only for a business on this machine).`,
        options,
      );
    case 'redirect':
      return new DiscoveryError(
        'redirect_refused',
        subject,
        `Refusing to follow a redirect while fetching ${what}: ${error.message}. Ask the business to serve it directly at the advertised URL.`,
        options,
      );
    case 'content_type':
    case 'not_json':
      if (subject === 'schema') return new DiscoveryError('schema_unavailable', subject, `Cannot use ${what}: ${error.message}`, options);
      return new ProfileError('profile_malformed', subject, `${capitalise(what)} is not a JSON document: ${error.message}`, options);
    default:
      return new DiscoveryError(
        subject === 'schema' ? 'schema_unavailable' : 'unreachable',
        subject,
        `Cannot fetch ${what}: ${error.message}`,
        options,
      );
  }
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
