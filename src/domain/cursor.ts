/**
 * Search pagination cursors (R-S9): opaque to the Platform, stateless for the Business.
 *
 * A cursor carries the keyset position of the last Location served (relevance, distance, id) and
 * how many Locations have been served so far (for the bounded-browse cap, R-S2). It is bound to
 * the request it was issued for through a fingerprint of that request without `pagination`, and
 * signed with HMAC-SHA256 so that it cannot be edited or replayed against another query. Any
 * instance holding the same secret can continue the sequence; nothing is stored server-side.
 *
 * Wire form: base64url(JSON body) "." base64url(HMAC-SHA256(secret, domain-tag + body)).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { UcpRequestError } from '../errors.js';
import type { RankKey } from './ranking.js';

export interface CursorState {
  /** Last Location served; the next page starts strictly after it. */
  position: RankKey;
  /** Locations served on all previous pages together. */
  served: number;
}

/** Longest cursor accepted; real ones are ~200 characters (an id plus a few numbers). */
const MAX_CURSOR_LENGTH = 4096;
const DOMAIN_TAG = 'ucp-location/cursor/v1\n';
const POINTER = '/pagination/cursor';

/**
 * JSON with object keys sorted (by UTF-16 code unit, recursively) and `undefined` members left
 * out, so that two requests meaning the same thing serialise identically regardless of member
 * order. Arrays keep their order (it can matter, e.g. the first-wins order of lookup ids).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    // Non-finite numbers cannot come from JSON; map them to null like JSON.stringify.
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/**
 * Fingerprint of a request without its `pagination` member, tagged with the operation name.
 * base64url of the first 16 bytes of SHA-256 (collisions are irrelevant: the HMAC is the guard).
 */
export function requestFingerprint(operation: string, request: object): string {
  const { pagination: _ignored, ...rest } = request as Record<string, unknown>;
  void _ignored;
  return createHash('sha256').update(`${operation}\n${canonicalJson(rest)}`).digest().subarray(0, 16).toString('base64url');
}

interface CursorBody {
  v: 1;
  /** request fingerprint */
  f: string;
  /** relevance */
  r: number;
  /** distance in metres; null stands for Infinity (JSON has no infinities) */
  d: number | null;
  /** id */
  i: string;
  /** served so far */
  n: number;
}

function sign(secret: string, body: string): Buffer {
  return createHmac('sha256', secret).update(DOMAIN_TAG).update(body).digest();
}

export function encodeCursor(state: CursorState, fingerprint: string, secret: string): string {
  const body: CursorBody = {
    v: 1,
    f: fingerprint,
    r: state.position.relevance,
    d: Number.isFinite(state.position.distance) ? state.position.distance : null,
    i: state.position.id,
    n: state.served,
  };
  const encoded = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
  return `${encoded}.${sign(secret, encoded).toString('base64url')}`;
}

function invalid(reason: string): UcpRequestError {
  return new UcpRequestError(
    'invalid_cursor',
    `pagination.cursor is not valid for this request (${reason}). A cursor can only continue the exact ` +
      'request that returned it, unchanged except for pagination.limit; send the request without ' +
      'pagination.cursor to start again from the first page.',
    POINTER,
  );
}

function isBody(x: unknown): x is CursorBody {
  if (typeof x !== 'object' || x === null) return false;
  const b = x as Record<string, unknown>;
  return (
    b.v === 1 &&
    typeof b.f === 'string' &&
    typeof b.r === 'number' &&
    Number.isFinite(b.r) &&
    (b.d === null || (typeof b.d === 'number' && Number.isFinite(b.d) && b.d >= 0)) &&
    typeof b.i === 'string' &&
    typeof b.n === 'number' &&
    Number.isSafeInteger(b.n) &&
    b.n >= 0
  );
}

/**
 * Verify and open a cursor for the request with this fingerprint. Throws UcpRequestError
 * `invalid_cursor` (pointer `/pagination/cursor`) when it is malformed, was edited, was signed
 * with another secret, or belongs to a different request.
 */
export function decodeCursor(token: string, fingerprint: string, secret: string): CursorState {
  if (token.length === 0 || token.length > MAX_CURSOR_LENGTH) throw invalid('unexpected length');
  const dot = token.indexOf('.');
  if (dot <= 0 || dot !== token.lastIndexOf('.')) throw invalid('not a cursor issued by this Business');
  const encoded = token.slice(0, dot);
  // Compare the signature *text*: base64url decoding is lenient (ignored padding bits and
  // characters), and every character of a cursor must be exactly as issued.
  const given = Buffer.from(token.slice(dot + 1), 'latin1');
  const expected = Buffer.from(sign(secret, encoded).toString('base64url'), 'latin1');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw invalid('signature mismatch: the cursor was modified or not issued by this Business');
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch (cause) {
    throw invalid(`unreadable content: ${(cause as Error).message}`);
  }
  if (!isBody(body)) throw invalid('unreadable content');
  if (body.f !== fingerprint) throw invalid('it was issued for a different query');
  return {
    position: { relevance: body.r, distance: body.d === null ? Number.POSITIVE_INFINITY : body.d, id: body.i },
    served: body.n,
  };
}
