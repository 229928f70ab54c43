/**
 * Who may use the console. On a loopback address anyone on this machine may (as with any local
 * tool); anywhere else a token is required, checked on every page and API call.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ConfigError } from '../errors.js';
import { isLoopbackHost } from '../http-kit/loopback.js';

export const TOKEN_ENV = 'UCP_CONSOLE_TOKEN';
/** Cookie that carries the token after the first visit with `?token=`. */
export const TOKEN_COOKIE = 'ucp_console_token';
/** Shortest token accepted: a guessable token would make binding off-loopback pointless. */
export const MIN_TOKEN_LENGTH = 16;

/** What counts as loopback is the HTTP kit's, the same for the Business server and the agent bridge. */
export { isLoopbackHost };

/** Checks the host/token pair at start: off loopback, a token of at least MIN_TOKEN_LENGTH characters is required. */
export function checkAccessSettings(host: string, token: string | undefined): void {
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    throw new ConfigError(
      `The console token must be at least ${MIN_TOKEN_LENGTH} characters long (got ${token.length}); use a long random value, e.g. \`openssl rand -hex 24\`.`,
    );
  }
  if (token === undefined && !isLoopbackHost(host)) {
    throw new ConfigError(
      `--host ${host} is not a loopback address, so the console needs a token: pass --token <secret> or set ${TOKEN_ENV} (at least ${MIN_TOKEN_LENGTH} characters). Bind to 127.0.0.1 to use it without one.`,
    );
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time comparison: both sides are hashed first, so even the length is not revealed by timing. */
export function tokenMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(expected), digest(given));
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeCookie(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** A malformed percent-encoding is no token at all (so 401), not a failure of the server. */
function decodeCookie(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** The token a request presents: `Authorization: Bearer …`, the console cookie, or `?token=`. */
export function presentedToken(req: IncomingMessage, url: URL): string | undefined {
  const auth = req.headers.authorization;
  if (auth !== undefined && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '');
  return cookieValue(req, TOKEN_COOKIE) ?? url.searchParams.get('token') ?? undefined;
}
