/**
 * `GET|HEAD /.well-known/ucp` (R-D1, R-D5): the Business profile, served as prepared bytes.
 *
 * The document is fixed for the life of the process, so it is serialised and hashed once; the
 * strong ETag is a digest of the exact bytes sent. Caching policy per R-D5: `public` with
 * max-age ≥ 60 (we use 300) and a validator; never a redirect.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UcpProfile } from '../protocol/types.js';

export const PROFILE_CACHE_CONTROL = 'public, max-age=300';

export interface PreparedProfile {
  readonly profile: UcpProfile;
  readonly body: Buffer;
  /** Strong entity tag, quoted, e.g. `"3q2-…"`. */
  readonly etag: string;
}

export function prepareProfile(profile: UcpProfile): PreparedProfile {
  const body = Buffer.from(JSON.stringify(profile), 'utf8');
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  return { profile, body, etag };
}

/**
 * RFC 9110 §13.1.2: If-None-Match uses weak comparison, so `W/"x"` matches `"x"`; `*` matches any
 * current representation.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const trimmed = header.trim();
  if (trimmed === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return trimmed.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}

/** Answers GET or HEAD; the caller has already routed the path and checked the method. */
export function serveProfile(req: IncomingMessage, res: ServerResponse, prepared: PreparedProfile): void {
  res.setHeader('Cache-Control', PROFILE_CACHE_CONTROL);
  res.setHeader('ETag', prepared.etag);
  if (ifNoneMatchHits(req.headers['if-none-match'], prepared.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', prepared.body.length);
  if (req.method === 'HEAD') res.end();
  else res.end(prepared.body);
}
