/**
 * How the checker signs what it sends (R-SIG2): with the run's key, every request the probes make
 * carries an RFC 9421 signature over the exact bytes sent, so a Business that requires signatures
 * can be checked at all. A probe may ask for one of the four requests a signing Business must
 * refuse instead: unsigned, signed by a key the Platform profile does not list, forged (the listed
 * kid, another key's signature), or tampered (the body changed after signing).
 */
import { generateSigningJwk, signRequest, signingKeyFromJwk, type SigningKey } from '../protocol/signatures/index.js';

/** A deliberately bad request for the R-SIG2 refusal probes. */
export type SigningProbe = 'unsigned' | 'unknown_key' | 'forged' | 'tampered';

export interface RunSigner {
  /** The key the Platform profile lists (its public part in `keys[]`). */
  readonly key: SigningKey;
  /** Named in `UCP-Agent` on every request, MCP included: the Business finds the key through it. */
  readonly profileUrl: string;
  /** A key the profile does not list, for the unknown-key and forged probes. */
  readonly stranger: SigningKey;
}

export function runSigner(key: SigningKey, profileUrl: string): RunSigner {
  return { key, profileUrl, stranger: signingKeyFromJwk(generateSigningJwk(), 'the checker’s stranger key') };
}

/** `profile="…"` as an RFC 8941 sf-string. */
function agentHeader(profileUrl: string): string {
  return `profile="${profileUrl.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The headers and body to send for `request` signed as `probe` asks (default: correctly). Headers
 * are lower-case; the `ucp-agent` a request carries is covered.
 */
export function signForProbe(
  request: {
    readonly binding: 'mcp' | 'rest';
    readonly method: string;
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string | undefined;
  },
  signer: RunSigner,
  probe?: SigningProbe,
): { headers: Record<string, string>; body: string | undefined } {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  // MCP names the profile in the body; the header tells a Business where the key is. REST requests
  // carry exactly the UCP-Agent their probe chose (none at all, for the R-G1 probe).
  if (request.binding === 'mcp') headers['ucp-agent'] ??= agentHeader(signer.profileUrl);
  if (probe === 'unsigned') return { headers, body: request.body };
  const key =
    probe === 'unknown_key'
      ? signer.stranger
      : probe === 'forged'
        ? { ...signer.stranger, kid: signer.key.kid, publicJwk: signer.key.publicJwk }
        : signer.key;
  const url = new URL(request.url);
  const bytes = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
  const signed = signRequest(
    {
      method: request.method,
      authority: url.host,
      path: url.pathname,
      query: url.search === '' ? undefined : url.search.slice(1),
      headers,
    },
    bytes,
    key,
    { created: Math.floor(Date.now() / 1000) },
  );
  // Tampered: one byte of insignificant whitespace added after signing; the JSON means the same, the digest no longer matches.
  const body = probe === 'tampered' && request.body !== undefined ? ` ${request.body}` : request.body;
  return { headers: { ...headers, ...signed }, body };
}
