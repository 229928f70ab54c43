/**
 * Reading a request body with a size bound, for every server of the package. The bytes are kept
 * exactly as they arrived (a signature's Content-Digest is computed over them, not over a
 * re-serialised value); JSON is parsed from them only after the size and nesting checks pass.
 *
 * Over the limit — by the declared Content-Length, or while streaming when none was declared or it
 * lied — the reader stops keeping bytes but goes on reading and dropping the rest for a short while,
 * so the client, still sending, can read the 413 instead of seeing its connection reset. Send that
 * answer after `closeAfterAnswer(res)`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../protocol/json-depth.js';

/** Why a request body was refused before anything used it; each server renders it in its own format. */
export type BodyFailureReason =
  /** 415: Content-Type is not application/json: send the body as JSON with that header. */
  | 'unsupported_media_type'
  /** 413: the body is over the server's size limit: send a smaller request (fewer ids, shorter text). */
  | 'payload_too_large'
  /** 400: the body is not valid JSON: fix its syntax. */
  | 'invalid_json'
  /** 400: arrays/objects nest deeper than the server accepts (MAX_JSON_DEPTH): flatten the request. */
  | 'nesting_too_deep';

export interface BodyFailure {
  status: 400 | 413 | 415;
  reason: BodyFailureReason;
  /** A sentence for the caller: what is wrong and what to send instead. */
  message: string;
  /**
   * The first bytes of the body that were read (at most PREFIX_KEPT_BYTES; empty when the body was
   * refused unread), so a JSON-RPC answer can still echo the request's id.
   */
  prefix: Buffer;
}

/** How much of an over-long body is kept for reading its JSON-RPC id. */
export const PREFIX_KEPT_BYTES = 8 * 1024;
/** How long the rest of an over-long body is read and dropped before the connection is cut. */
export const DISCARD_MS = 5_000;
/**
 * For the 413 answer: the connection still carries the unread rest of the body, so it cannot carry
 * another request; `Connection: close` tells the client so.
 */
export function closeAfterAnswer(res: ServerResponse): void {
  res.setHeader('Connection', 'close');
}

export type BodyRead = { ok: true; bytes: Buffer } | ({ ok: false } & BodyFailure);

/** The whole body, exactly as sent, when it is at most `maxBytes`; otherwise a 413 failure. */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    discardRest(req);
    return tooLarge(maxBytes, Buffer.alloc(0));
  }
  // Event listeners rather than `for await`: leaving a for-await loop early destroys the request
  // stream, and with it the socket the 413 answer still needs.
  return new Promise<BodyRead>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      if (size + chunk.length <= maxBytes) {
        chunks.push(chunk);
        size += chunk.length;
        return;
      }
      req.off('data', onData);
      req.off('end', onEnd);
      const seen = Buffer.concat([...chunks, chunk]);
      discardRest(req);
      resolve(tooLarge(maxBytes, seen.subarray(0, PREFIX_KEPT_BYTES)));
    };
    const onEnd = (): void => resolve({ ok: true, bytes: Buffer.concat(chunks, size) });
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
  });
}

/** `application/json`, optionally with `charset=utf-8`; other parameters are ignored. */
export function isJsonMediaType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const [type, ...params] = header.split(';').map((p) => p.trim().toLowerCase());
  if (type !== 'application/json') return false;
  const charset = params.find((p) => p.startsWith('charset='));
  return charset === undefined || /^charset="?utf-8"?$/.test(charset);
}

export type ParsedJson = { ok: true; value: unknown } | ({ ok: false } & BodyFailure);

/**
 * JSON from raw bytes: the nesting depth is checked on the bytes first, so no recursive code
 * downstream ever sees more than MAX_JSON_DEPTH levels; then the syntax.
 */
export function parseJsonBytes(bytes: Buffer): ParsedJson {
  const prefix = bytes.subarray(0, PREFIX_KEPT_BYTES);
  if (exceedsJsonDepth(bytes)) {
    return {
      ok: false,
      status: 400,
      reason: 'nesting_too_deep',
      message: `The request body nests arrays/objects more than ${MAX_JSON_DEPTH} levels deep; no request here needs that many.`,
      prefix,
    };
  }
  try {
    return { ok: true, value: JSON.parse(bytes.toString('utf8')) };
  } catch (err) {
    const detail = err instanceof SyntaxError ? err.message : 'unparsable';
    return { ok: false, status: 400, reason: 'invalid_json', message: `The request body is not valid JSON (${detail}).`, prefix };
  }
}

export type JsonBody = { ok: true; value: unknown; raw: Buffer } | ({ ok: false } & BodyFailure);

/** A JSON body with every check a JSON endpoint makes: media type (415), size (413), depth and syntax (400). */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<JsonBody> {
  if (!isJsonMediaType(req.headers['content-type'])) {
    const got = req.headers['content-type'] ?? 'none';
    req.resume(); // discard the body so the connection can be reused
    return {
      ok: false,
      status: 415,
      reason: 'unsupported_media_type',
      message: `Content-Type must be application/json (got ${got}).`,
      prefix: Buffer.alloc(0),
    };
  }
  const read = await readBody(req, maxBytes);
  if (!read.ok) return read;
  const parsed = parseJsonBytes(read.bytes);
  return parsed.ok ? { ok: true, value: parsed.value, raw: read.bytes } : parsed;
}

function tooLarge(maxBytes: number, prefix: Buffer): { ok: false } & BodyFailure {
  return {
    ok: false,
    status: 413,
    reason: 'payload_too_large',
    message: `The request body is larger than the limit of ${maxBytes} bytes; send a smaller request.`,
    prefix,
  };
}

/**
 * Reads and drops the rest of a refused body, for DISCARD_MS at most: destroying the socket at once
 * would reset the connection under a client still sending, which then never reads the answer.
 */
function discardRest(req: IncomingMessage): void {
  req.on('data', () => undefined);
  req.resume();
  if (req.complete) return;
  const timer = setTimeout(() => {
    if (!req.complete) req.destroy();
  }, DISCARD_MS);
  timer.unref();
  req.once('end', () => clearTimeout(timer));
}
