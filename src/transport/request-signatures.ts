/**
 * Who is calling (R-SIG2, R-SIG4): the one place a request's RFC 9421 signature is checked, on
 * REST and on MCP over HTTP alike. It takes the request as the signature saw it — method,
 * authority, path, query, headers and the raw body bytes — so it does not depend on how a binding
 * reads its body. The signer's keys come from the Platform profile named by `UCP-Agent` (or, on MCP
 * without that header, by the call's `meta["ucp-agent"].profile`), resolved under the same fetch
 * rules, cache and trust as negotiation.
 *
 * The outcome is a caller identity the budgets and trust are bound to: `verified` (a signature of
 * that profile's key verified), `unverified` (unsigned, verification on: the caller is charged apart
 * from the profile it names, R-SIG4) or `claimed` (verification off: the caller is who it says).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { SignatureVerification } from '../config.js';
import { hasSignatureHeaders, profileKeys, SignatureError, verifyRequest } from '../protocol/signatures/index.js';
import type { PlatformProfileSource } from './negotiate-request.js';
import { parseUcpAgent } from './rest/ucp-agent.js';

/** The request as its signature covers it. */
export interface SignedRequest {
  readonly method: string;
  readonly authority: string;
  readonly path: string;
  /** Without the `?`; undefined when the target has none. */
  readonly query: string | undefined;
  readonly headers: IncomingHttpHeaders;
  /** The body exactly as received. */
  readonly body: Uint8Array;
}

export type CallerIdentity =
  /** A signature by a key the profile publishes verified: the caller is that profile. */
  | { readonly kind: 'verified'; readonly profileUrl: string; readonly keyid: string }
  /** Unsigned while verification is on: served, but never as the profile it names (R-SIG4). */
  | { readonly kind: 'unverified' }
  /** Verification is off: the caller is taken at its word, as before signatures existed. */
  | { readonly kind: 'claimed' };

export interface RequestVerifierOptions {
  readonly mode: SignatureVerification;
  readonly profiles: PlatformProfileSource;
  /** Epoch ms (the server's pinned clock in tests). */
  readonly now: () => number;
}

/** The parts of a Node request a signature covers; `body` is the raw bytes the binding read. */
export function signedRequestOf(
  req: { method?: string | undefined; url?: string | undefined; headers: IncomingHttpHeaders },
  body: Uint8Array,
): SignedRequest {
  const target = req.url ?? '/';
  const mark = target.indexOf('?');
  return {
    method: req.method ?? 'POST',
    authority: req.headers.host ?? '',
    path: mark < 0 ? target : target.slice(0, mark),
    query: mark < 0 ? undefined : target.slice(mark + 1),
    headers: req.headers,
    body,
  };
}

export class RequestVerifier {
  constructor(private readonly options: RequestVerifierOptions) {}

  get mode(): SignatureVerification {
    return this.options.mode;
  }

  /**
   * The caller's identity, or a `SignatureError` (401/400, the draft's code) when the request is
   * refused; a profile that cannot be resolved throws the negotiation error (424, 422, 400).
   * @param fallbackProfileUrl the profile the call itself names, when there is no `UCP-Agent` header (MCP `meta`).
   * @param client the caller's address: a profile fetch spends its share of the discovery budget.
   */
  async identify(request: SignedRequest, fallbackProfileUrl: string | undefined, client: string | undefined): Promise<CallerIdentity> {
    if (this.options.mode === 'off') return { kind: 'claimed' };
    if (!hasSignatureHeaders(request)) {
      if (this.options.mode === 'required') {
        throw new SignatureError(
          'signature_missing',
          'This business requires signed requests: sign each request per RFC 9421 (Signature-Input, Signature and, with a body, Content-Digest) with a key published in your platform profile keys[].',
        );
      }
      return { kind: 'unverified' };
    }
    const header = request.headers['ucp-agent'];
    const profileUrl = header === undefined ? fallbackProfileUrl : parseUcpAgent(header);
    if (profileUrl === undefined) {
      throw new SignatureError(
        'key_not_found',
        'The request is signed but names no platform profile to find the key in: send UCP-Agent: profile="<your profile URL>" and cover it in the signature.',
      );
    }
    const profile = await this.options.profiles.resolve(profileUrl, { client });
    const verified = verifyRequest(request, request.body, { keys: profileKeys(profile), now: Math.floor(this.options.now() / 1000) });
    return { kind: 'verified', profileUrl, keyid: verified.keyid };
  }
}

/**
 * The profile budget a call is charged to (R-SIG4): a verified caller, or one taken at its word,
 * spends the budget of the profile it names; an unverified one a budget of its own, so naming a
 * Platform's profile never spends that Platform's budget.
 */
export function budgetProfileKey(profileUrl: string, caller: CallerIdentity | undefined): string {
  if (caller === undefined || caller.kind === 'claimed') return profileUrl;
  if (caller.kind === 'verified' && caller.profileUrl === profileUrl) return profileUrl;
  return `unverified ${profileUrl}`;
}
