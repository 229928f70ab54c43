/**
 * Search pagination cursors (R-S9): opaque to the Platform, stateless for the Business.
 *
 * A cursor carries the keyset position of the last Location served (locality tiers, relevance,
 * distance, id) and how many Locations have been served so far (for the bounded-browse cap,
 * R-S2). It is bound to
 * the request it was issued for through a fingerprint of that request without `pagination`.
 *
 * It is sealed with AES-256-GCM under a key derived (HKDF-SHA256) from the configured secret:
 * authenticated, so it cannot be edited or replayed against another query, and encrypted, so the
 * relevance scores and served counts inside stay ours — a Platform sees an opaque token, as the
 * spec promises, and cannot come to depend on its contents. Any instance holding the same secret
 * can continue the sequence; nothing is stored server-side.
 *
 * Wire form: base64url(version byte ‖ 12-byte nonce ‖ ciphertext ‖ 16-byte tag); the version
 * byte is authenticated as associated data.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync } from 'node:crypto';
import { causeMessage, UcpRequestError } from '../errors.js';
import { elementAt, isRecord } from '../protocol/guards.js';
import type { RankKey } from './ranking.js';

export interface CursorState {
  /** Last Location served; the next page starts strictly after it. */
  position: RankKey;
  /** Locations served on all previous pages together. */
  served: number;
  /**
   * The data snapshot the walk reads (an in-memory index generation), when the store pins one:
   * later pages are read from the same snapshot while it is retained.
   */
  snapshot?: number;
}

/** Longest cursor accepted; real ones are ~200 characters (an id plus a few numbers). */
const MAX_CURSOR_LENGTH = 4096;
const POINTER = '/pagination/cursor';
const VERSION = 2;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A value canonicalJson has yet to serialise (as opposed to literal text on its stack). */
class Pending {
  constructor(readonly value: unknown) {}
}

/**
 * JSON with object keys sorted (by UTF-16 code unit, recursively) and `undefined` members left
 * out, so that two requests meaning the same thing serialise identically regardless of member
 * order. Arrays keep their order (it can matter, e.g. the first-wins order of lookup ids).
 */
export function canonicalJson(value: unknown): string {
  // An explicit stack rather than recursion: the fingerprint covers members the schema does not
  // look into (`context`, `signals`, unknown members), so this must not overflow on any input
  // (a 3,000-deep `context` did, when this was recursive). Literal output text and values still
  // to serialise share the stack; popping yields them in output order.
  const out: string[] = [];
  const stack: (string | Pending)[] = [new Pending(value)];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const v = item.value;
    if (v === null || typeof v !== 'object') {
      // Non-finite numbers cannot come from JSON; map them (and undefined array slots) to null like JSON.stringify.
      out.push(JSON.stringify(v) ?? 'null');
    } else if (Array.isArray(v)) {
      out.push('[');
      stack.push(']');
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push(new Pending(v[i]));
        if (i > 0) stack.push(',');
      }
    } else {
      const entries: [string, unknown][] = Object.entries(v)
        .filter(([, member]) => member !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      out.push('{');
      stack.push('}');
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, member] = elementAt(entries, i);
        stack.push(new Pending(member), `${JSON.stringify(key)}:`);
        if (i > 0) stack.push(',');
      }
    }
  }
  return out.join('');
}

/**
 * Fingerprint of a request without its `pagination` member, tagged with the operation name.
 * base64url of the first 16 bytes of SHA-256 (collisions are irrelevant: the seal is the guard).
 */
export function requestFingerprint(operation: string, request: object): string {
  const rest = Object.fromEntries(Object.entries(request).filter(([key]) => key !== 'pagination'));
  return createHash('sha256')
    .update(`${operation}\n${canonicalJson(rest)}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
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
  /** locality tier and tie-break tier (see ranking.ts); absent when 0 */
  t?: number;
  b?: number;
  /** served so far */
  n: number;
  /** snapshot the walk reads; absent when the store pins none */
  g?: number;
}

interface CursorKeys {
  secret: string;
  /** AES-256-GCM key. */
  seal: Buffer;
  /** HMAC key deriving each cursor's nonce from its payload. */
  nonce: Buffer;
}

/** Keys of the last secret seen: a process uses one secret, and HKDF per cursor would be waste. */
let cachedKeys: CursorKeys | undefined;

function keysFor(secret: string): CursorKeys {
  if (cachedKeys?.secret !== secret) {
    const okm = Buffer.from(hkdfSync('sha256', secret, 'ucp-location', 'pagination-cursor/v2', 64));
    cachedKeys = { secret, seal: okm.subarray(0, 32), nonce: okm.subarray(32) };
  }
  return cachedKeys;
}

const HEADER = Buffer.from([VERSION]);

/**
 * Encrypts and authenticates a cursor payload. Exported for tests of `decodeCursor`'s checks.
 *
 * The nonce is derived from the payload (HMAC, a synthetic IV) rather than drawn at random, so
 * one request gives one answer byte for byte — the same cursor on every instance, binding and
 * retry. A nonce repeats only for an identical payload, which then seals to the identical token:
 * all an observer learns is that two cursors are the same cursor.
 */
export function sealCursorPayload(payload: string, secret: string): string {
  const keys = keysFor(secret);
  const nonce = createHmac('sha256', keys.nonce).update(payload).digest().subarray(0, NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.seal, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(HEADER);
  const sealed = Buffer.concat([HEADER, nonce, cipher.update(payload, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return sealed.toString('base64url');
}

/** The payload of a cursor sealed with this secret, or why it is not one. */
function openCursor(token: string, secret: string): string {
  const bytes = Buffer.from(token, 'base64url');
  // base64url decoding is lenient (stray characters, padding bits); every character of a cursor
  // must be exactly as issued, so the token must be the canonical spelling of its bytes.
  if (bytes.toString('base64url') !== token || bytes.length < 1 + NONCE_BYTES + TAG_BYTES || bytes[0] !== VERSION) {
    throw invalid('not a cursor issued by this Business');
  }
  const decipher = createDecipheriv('aes-256-gcm', keysFor(secret).seal, bytes.subarray(1, 1 + NONCE_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(HEADER);
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(1 + NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw invalid('it was modified or not issued by this Business');
  }
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
  const { tier = 0, tieBreak = 0 } = state.position;
  if (tier !== 0) body.t = tier;
  if (tieBreak !== 0) body.b = tieBreak;
  if (state.snapshot !== undefined) body.g = state.snapshot;
  return sealCursorPayload(JSON.stringify(body), secret);
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
  if (!isRecord(x)) return false;
  const b = x;
  return (
    b.v === 1 &&
    typeof b.f === 'string' &&
    typeof b.r === 'number' &&
    Number.isFinite(b.r) &&
    (b.d === null || (typeof b.d === 'number' && Number.isFinite(b.d) && b.d >= 0)) &&
    typeof b.i === 'string' &&
    (b.t === undefined || (typeof b.t === 'number' && Number.isSafeInteger(b.t) && b.t >= 0)) &&
    (b.b === undefined || (typeof b.b === 'number' && Number.isSafeInteger(b.b) && b.b >= 0)) &&
    (b.g === undefined || (typeof b.g === 'number' && Number.isSafeInteger(b.g) && b.g >= 0)) &&
    typeof b.n === 'number' &&
    Number.isSafeInteger(b.n) &&
    b.n >= 0
  );
}

/**
 * Verify and open a cursor for the request with this fingerprint. Throws UcpRequestError
 * `invalid_cursor` (pointer `/pagination/cursor`) when it is malformed, was edited, was sealed
 * with another secret, or belongs to a different request.
 */
export function decodeCursor(token: string, fingerprint: string, secret: string): CursorState {
  if (token.length === 0 || token.length > MAX_CURSOR_LENGTH) throw invalid('unexpected length');
  const payload = openCursor(token, secret);
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch (cause) {
    throw invalid(`unreadable content: ${causeMessage(cause)}`);
  }
  if (!isBody(body)) throw invalid('unreadable content');
  if (body.f !== fingerprint) throw invalid('it was issued for a different query');
  return {
    position: {
      relevance: body.r,
      distance: body.d === null ? Number.POSITIVE_INFINITY : body.d,
      id: body.i,
      ...(body.t === undefined ? {} : { tier: body.t }),
      ...(body.b === undefined ? {} : { tieBreak: body.b }),
    },
    served: body.n,
    ...(body.g === undefined ? {} : { snapshot: body.g }),
  };
}
