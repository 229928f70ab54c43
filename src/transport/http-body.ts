/**
 * Reading a JSON request body with the limits every UCP endpoint shares: media type (415), size
 * (413, checked against Content-Length up front and while streaming), nesting depth (400) and
 * syntax (400). Each binding
 * renders these failures in its own error format.
 */
import type { IncomingMessage } from 'node:http';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../protocol/json-depth.js';

/** Why a request body was refused before anything read it (each binding renders it in its own error format). */
export type BodyFailureReason =
  /** 415: Content-Type is not application/json: send the body as JSON with that header. */
  | 'unsupported_media_type'
  /** 413: the body is over the server's size limit: send a smaller request (fewer ids, shorter text). */
  | 'payload_too_large'
  /** 400: the body is not valid JSON: fix its syntax. */
  | 'invalid_json'
  /** 400: arrays/objects nest deeper than the server accepts (MAX_JSON_DEPTH): flatten the request. */
  | 'nesting_too_deep';

export type JsonBody =
  | { ok: true; value: unknown; /** The body exactly as received (a signature's digest covers these). */ raw: Buffer }
  | { ok: false; status: 400 | 413 | 415; reason: BodyFailureReason; message: string };

/** `application/json`, optionally with `charset=utf-8`; parameters otherwise ignored. */
export function isJsonMediaType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const [type, ...params] = header.split(';').map((p) => p.trim().toLowerCase());
  if (type !== 'application/json') return false;
  const charset = params.find((p) => p.startsWith('charset='));
  return charset === undefined || /^charset="?utf-8"?$/.test(charset);
}

export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<JsonBody> {
  if (!isJsonMediaType(req.headers['content-type'])) {
    const got = req.headers['content-type'] ?? 'none';
    req.resume(); // discard the body so the connection can be reused
    return { ok: false, status: 415, reason: 'unsupported_media_type', message: `Content-Type must be application/json (got ${got}).` };
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return tooLarge(maxBytes);
  }
  // Event listeners rather than `for await`: leaving a for-await loop early destroys the request
  // stream, and with it the socket we still need for the 413 answer.
  const collected = await new Promise<Buffer | undefined>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.resume(); // keep draining, discard
      resolve(undefined);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, Math.min(size, maxBytes))));
    req.once('error', reject);
  });
  if (collected === undefined) return tooLarge(maxBytes);
  // Before JSON.parse, so no recursive walker downstream ever sees more than MAX_JSON_DEPTH levels.
  if (exceedsJsonDepth(collected)) {
    return {
      ok: false,
      status: 400,
      reason: 'nesting_too_deep',
      message: `The request body nests arrays/objects more than ${MAX_JSON_DEPTH} levels deep; no UCP request needs that many.`,
    };
  }
  const text = collected.toString('utf8');
  try {
    return { ok: true, value: JSON.parse(text), raw: collected };
  } catch (err) {
    const detail = err instanceof SyntaxError ? err.message : 'unparsable';
    return { ok: false, status: 400, reason: 'invalid_json', message: `The request body is not valid JSON (${detail}).` };
  }
}

function tooLarge(maxBytes: number): JsonBody {
  return { ok: false, status: 413, reason: 'payload_too_large', message: `The request body exceeds the limit of ${maxBytes} bytes.` };
}
