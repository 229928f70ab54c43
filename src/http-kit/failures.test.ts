import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DataValidationError,
  ForbiddenError,
  RateLimitedError,
  ServiceUnavailableError,
  StoreError,
  UcpNegotiationError,
  UcpRequestError,
} from '../errors.js';
import { failureOf, HttpError, TRANSIENT_RETRY_AFTER_SECONDS } from './failures.js';

describe('failureOf: the one table from a failure to an answer', () => {
  it('gives each wire error its status, code and own message', () => {
    const rows: [unknown, number, string][] = [
      [new UcpRequestError('radius_too_large', 'radius over 50 km', '/distance/max'), 400, 'radius_too_large'],
      [new UcpNegotiationError('profile_unreachable', 'could not fetch the profile'), 424, 'profile_unreachable'],
      [new UcpNegotiationError('version_unsupported', 'no common version'), 422, 'version_unsupported'],
      [new ForbiddenError('Host "x" is not served here.'), 403, 'forbidden'],
      [new RateLimitedError(7, 'slow down'), 429, 'rate_limited'],
      [new ServiceUnavailableError(3, 'database down'), 503, 'service_unavailable'],
      [new HttpError(404, 'No such page.'), 404, 'http_404'],
      [new HttpError(422, 'rejected', { code: 'data_rejected', details: { issues: [] } }), 422, 'data_rejected'],
    ];
    for (const [error, status, code] of rows) {
      const failure = failureOf(error, 'ref-1');
      expect(failure, code).toMatchObject({ status, code, message: (error as Error).message, unexpected: false });
    }
    expect(failureOf(new RateLimitedError(7), 'r').retryAfterSeconds).toBe(7);
    expect(failureOf(new UcpRequestError('invalid_request', 'bad', '/ids'), 'r').details).toEqual({ pointer: '/ids' });
  });

  it('never passes on the text of an internal failure: a 500 naming only the reference it was logged under (property)', () => {
    const internal = fc.oneof(
      fc.string().map((m) => new Error(m)),
      fc.string().map((m) => new TypeError(m)),
      fc.string().map((m) => new ConfigError(m)),
      fc.string().map((m) => new StoreError('open_failed', m)),
      fc.string().map((m) => new DataValidationError([], m)),
      fc.string(),
    );
    fc.assert(
      fc.property(internal, fc.uuid(), (error, reference) => {
        const failure = failureOf(error, reference);
        expect(failure).toMatchObject({ status: 500, code: 'internal_error', unexpected: true, details: {} });
        expect(failure.message).toBe(`Internal server error; it was logged under Request-Id ${reference}.`);
      }),
    );
  });

  it('answers a transient store failure 503 with Retry-After, without the store’s own text (it may name the host)', () => {
    const failure = failureOf(new StoreError('unavailable', 'connect ECONNREFUSED db.internal:5432'), 'r');
    expect(failure).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      retryAfterSeconds: TRANSIENT_RETRY_AFTER_SECONDS,
      unexpected: true,
    });
    expect(failure.message).not.toContain('db.internal');
  });
});
