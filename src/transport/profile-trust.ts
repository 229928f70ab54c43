/**
 * What a caller is told about the Platform profiles this Business pre-approves.
 *
 * A discovery failure (`-32001` on MCP; 400/422/424 on REST, R-G5) is where an MCP host that
 * connected directly finds out it needs a profile URL at all. So every such error says which
 * profile URLs are pre-approved here and how the operator adds one (the flag and the configuration
 * key), and the tool descriptions name the same URLs.
 *
 * Only *announced* URLs are named: those of profiles trusted from files for this purpose
 * (`--trust-platform-profile`, `trustedPlatformProfiles`) and the demo's example profile.
 * Entries of `trustedPlatforms` are partners configured out of band; they know their URL, and a
 * public error should not list a Business's partners.
 */
import { UcpNegotiationError } from '../errors.js';

/** Spelled here rather than imported: transport/ must not depend on the CLI. */
const TRUST_FLAG = '--trust-platform-profile';
const TRUST_CONFIG_KEY = 'trustedPlatformProfiles';

/** The profile URL a caller should use in examples: the first announced one, or a placeholder. */
export function exampleProfileUrl(announced: readonly string[]): string {
  return announced[0] ?? 'https://platform.example/profile.json';
}

/** One or two sentences: which URLs to send, and how the operator trusts another profile. */
export function trustHint(announced: readonly string[]): string {
  const howToAdd = `${TRUST_FLAG} <profile.json>[=<https-url>] (configuration key ${TRUST_CONFIG_KEY})`;
  if (announced.length === 0) {
    return (
      'No platform profile is announced as pre-approved here: publish yours at a public https URL, or have the business ' +
      `operator trust it with ${howToAdd} — \`ucp-location platform-profile init --out platform.json\` writes one.`
    );
  }
  const list = announced.join(', ');
  const which = announced.length === 1 ? `the platform profile URL ${list}` : `these platform profile URLs: ${list}`;
  return (
    `This business pre-approves ${which}; send ${announced.length === 1 ? 'it' : 'one of them'} in meta["ucp-agent"].profile (MCP) ` +
    `or UCP-Agent: profile="…" (REST). To use another profile without publishing it, the business operator adds it with ${howToAdd}.`
  );
}

/**
 * The same discovery / version error carrying the Business's `continue_url` (config key
 * `continueUrl`) when it has none of its own: where the draft places it, a fallback web page for
 * the buyer when UCP negotiation fails. Anything else is returned unchanged.
 */
export function withContinueUrl(err: unknown, continueUrl: string | undefined): unknown {
  if (continueUrl === undefined || !(err instanceof UcpNegotiationError) || err.continueUrl !== undefined) return err;
  return new UcpNegotiationError(err.code, err.message, { cause: err.cause ?? err, continueUrl });
}

/**
 * The same error with the trust hint appended to its message (the JSON-RPC `message` and
 * `data.content`, and the REST message content); anything else is returned unchanged.
 */
export function withTrustHint(err: unknown, announced: readonly string[]): unknown {
  if (!(err instanceof UcpNegotiationError)) return err;
  const hint = trustHint(announced);
  if (err.message.endsWith(hint)) return err;
  const options = { cause: err.cause ?? err, ...(err.continueUrl === undefined ? {} : { continueUrl: err.continueUrl }) };
  return new UcpNegotiationError(err.code, `${err.message} ${hint}`, options);
}
