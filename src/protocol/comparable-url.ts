/**
 * When two spellings of a schema URL name the same document. A profile may write a pinned
 * `dev.ucp.*` schema as `https://UCP.DEV./2026-08-25/schemas/…` or `https://ucp.dev:443/…`; authority
 * binding (R-N2) already accepts those forms, so recognising the pinned document must too.
 *
 * Equal means: equal after WHATWG URL parsing (which lower-cases scheme and host, converts the host
 * to its A-label form, drops the scheme's default port and resolves `.`/`..` path segments), with
 * one trailing dot removed from the host (as R-N2 strips it) and the fragment dropped (a fragment
 * points inside a document; it never names another one). Path and query stay case- and
 * byte-sensitive, and percent-encoding is not decoded: `/a%2Fb` and `/a/b` are different documents,
 * as they are to any server.
 */

/** The comparison key of `raw`, or undefined when it is not an absolute URL. */
export function comparableUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.slice(0, -1);
  url.hash = '';
  return url.href;
}
