/**
 * Verifying signatures as the UCP draft's Identity Resolution Algorithm does, for one signer whose
 * published keys the caller has already resolved (a Business: the `UCP-Agent` profile's keys; a
 * Platform: the Business profile's). Each signature in the message is a candidate; the message is
 * authenticated when one verifies, and refused with the failure of the candidate that got furthest
 * otherwise. Pure: no fetching, the clock is a parameter.
 */
import { headerValue, signatureBase, type MessageParts, type RequestParts, type ResponseParts } from './base.js';
import { verifyBase } from './crypto.js';
import { verifyContentDigest } from './digest.js';
import { SignatureError, type SignatureErrorCode } from './errors.js';
import { parseSignatureField, parseSignatureInput, type SignatureInput } from './fields.js';
import {
  algorithmOf,
  HTTP_SIGNATURE_ALGORITHM,
  importPublicJwk,
  isSignatureCapable,
  jwkThumbprint,
  type SignatureAlgorithm,
} from './jwk.js';
import { requiredRequestComponents } from './sign.js';
import { isRecord } from '../guards.js';

export interface VerifyOptions {
  /** The signer's published keys, as read from its profile (`keys[]`, then `signing_keys[]`); unusable entries are skipped. */
  readonly keys: readonly unknown[];
  /** The current time in Unix seconds, for `expires` and `created`. */
  readonly now: number;
  /** Seconds of clock difference tolerated on `expires` and on a `created` in the future; 60 by default. */
  readonly clockSkewSeconds?: number;
}

/** The signature that authenticated a message. */
export interface VerifiedSignature {
  readonly label: string;
  readonly keyid: string;
  readonly algorithm: SignatureAlgorithm;
  readonly components: readonly string[];
  readonly created?: number;
  readonly expires?: number;
}

/** Whether the message carries any signature field: absent both, a Business treats the caller as unsigned. */
export function hasSignatureHeaders(message: MessageParts): boolean {
  return headerValue(message.headers, 'signature') !== undefined || headerValue(message.headers, 'signature-input') !== undefined;
}

/**
 * How far a candidate got before it failed: the reported failure is the one that got furthest,
 * so a request whose only signature fails the digest says `digest_mismatch`, not `key_not_found`.
 */
const STAGE: Readonly<Record<SignatureErrorCode, number>> = {
  signature_missing: 0,
  key_not_found: 1,
  algorithm_unsupported: 2,
  digest_mismatch: 4,
  signature_invalid: 5,
};

interface Checks {
  readonly requiredComponents: readonly string[];
  /** The code a coverage gap yields: requests treat it as unsigned, responses as invalid (draft). */
  readonly coverageCode: SignatureErrorCode;
  readonly body: Uint8Array;
}

function findKey(keys: readonly unknown[], keyid: string): Readonly<Record<string, unknown>> | undefined {
  for (const key of keys) {
    if (isRecord(key) && key['kid'] === keyid && isSignatureCapable(key)) return key;
  }
  return undefined;
}

function checkCandidate(
  message: MessageParts,
  input: SignatureInput,
  signature: Uint8Array,
  checks: Checks,
  options: VerifyOptions,
): VerifiedSignature {
  const { label, params } = input;
  if (params.tag !== undefined && params.tag !== 'web-bot-auth') {
    throw new SignatureError('signature_missing', `Signature ${label} carries tag "${params.tag}", which is not a UCP signature.`);
  }
  const keyid = params.keyid;
  if (keyid === undefined)
    throw new SignatureError('key_not_found', `Signature-Input ${label} has no keyid; name the kid of a key in your profile's keys[].`);
  const jwk = findKey(options.keys, keyid);
  if (jwk === undefined) {
    throw new SignatureError('key_not_found', `No signature-capable key with kid "${keyid}" is published in the signer's profile keys[].`);
  }
  if (params.tag === 'web-bot-auth' && safeThumbprint(jwk) !== keyid) {
    throw new SignatureError(
      'signature_invalid',
      `Signature ${label} is tagged web-bot-auth, so its keyid must be the key's RFC 7638 thumbprint.`,
    );
  }
  const algorithm = algorithmOf(jwk);
  const publicKey = algorithm === undefined ? undefined : importPublicJwk(jwk);
  if (algorithm === undefined || publicKey === undefined) {
    throw new SignatureError(
      'algorithm_unsupported',
      `Key "${keyid}" (kty ${JSON.stringify(jwk['kty'])}, crv ${JSON.stringify(jwk['crv'])}) is not a key this verifier supports; sign with an ES256 (EC P-256) key.`,
    );
  }
  if (params.alg !== undefined && params.alg !== HTTP_SIGNATURE_ALGORITHM[algorithm]) {
    throw new SignatureError(
      'signature_invalid',
      `Signature ${label} states alg "${params.alg}", but key "${keyid}" is ${HTTP_SIGNATURE_ALGORITHM[algorithm]}.`,
    );
  }
  const covered = new Set(input.components.filter((c) => c.key === undefined || c.name === 'signature-agent').map((c) => c.name));
  const uncovered = checks.requiredComponents.filter((name) => !covered.has(name));
  if (uncovered.length > 0) {
    throw new SignatureError(
      checks.coverageCode,
      `Signature ${label} does not cover ${uncovered.map((n) => `"${n}"`).join(', ')}; a signature must cover ${checks.requiredComponents.map((n) => `"${n}"`).join(' ')} for this message.`,
    );
  }
  const skew = options.clockSkewSeconds ?? 60;
  if (params.expires !== undefined && options.now > params.expires + skew) {
    throw new SignatureError('signature_invalid', `Signature ${label} expired at ${params.expires} (now ${options.now}); sign again.`);
  }
  if (params.created !== undefined && params.created > options.now + skew) {
    throw new SignatureError(
      'signature_invalid',
      `Signature ${label} was created at ${params.created}, in the future (now ${options.now}); check the signer's clock.`,
    );
  }
  if (covered.has('content-digest') || checks.body.byteLength > 0)
    verifyContentDigest(headerValue(message.headers, 'content-digest'), checks.body);
  const base = signatureBase(message, input.components, input.serializedParams);
  if (!verifyBase(algorithm, publicKey, base, signature)) {
    throw new SignatureError(
      'signature_invalid',
      `Signature ${label} does not verify with key "${keyid}"; sign the exact method, target, headers and body sent.`,
    );
  }
  return {
    label,
    keyid,
    algorithm,
    components: input.components.map((c) => c.name),
    ...(params.created === undefined ? {} : { created: params.created }),
    ...(params.expires === undefined ? {} : { expires: params.expires }),
  };
}

function safeThumbprint(jwk: unknown): string | undefined {
  try {
    return jwkThumbprint(jwk);
  } catch {
    return undefined;
  }
}

function verifyMessage(message: MessageParts, checks: Checks, options: VerifyOptions): VerifiedSignature {
  const inputs = parseSignatureInput(headerValue(message.headers, 'signature-input'));
  const signatures = parseSignatureField(headerValue(message.headers, 'signature'));
  if (inputs.size === 0 || signatures.size === 0) {
    throw new SignatureError('signature_missing', 'The message is not signed: send both Signature-Input and Signature headers (RFC 9421).');
  }
  let furthest: SignatureError | undefined;
  for (const input of inputs.values()) {
    const signature = signatures.get(input.label);
    if (signature === undefined) {
      furthest ??= new SignatureError(
        'signature_missing',
        `Signature-Input names ${input.label}, but the Signature header has no ${input.label} member.`,
      );
      continue;
    }
    try {
      return checkCandidate(message, input, signature, checks, options);
    } catch (error) {
      if (!(error instanceof SignatureError)) throw error;
      if (furthest === undefined || STAGE[error.code] > STAGE[furthest.code]) furthest = error;
    }
  }
  throw furthest ?? new SignatureError('signature_missing', 'No Signature-Input member has a matching Signature member.');
}

/**
 * Verifies a request's signatures against its signer's published keys (R-SIG2): coverage of what
 * the draft requires, `expires`, the digest over the raw `body` bytes, then the signature itself.
 * Returns the signature that verified; throws `SignatureError` with the draft's code otherwise.
 */
export function verifyRequest(request: RequestParts, body: Uint8Array, options: VerifyOptions): VerifiedSignature {
  const required = requiredRequestComponents(request, body.byteLength > 0).map((c) => c.name);
  if (headerValue(request.headers, 'signature-agent') !== undefined) required.push('signature-agent');
  return verifyMessage(request, { requiredComponents: required, coverageCode: 'signature_missing', body }, options);
}

/** Verifies a response's signatures (R-SIG3): `@status`, and `content-digest` and `content-type` when it has a body. */
export function verifyResponse(response: ResponseParts, body: Uint8Array, options: VerifyOptions): VerifiedSignature {
  const required = ['@status', ...(body.byteLength > 0 ? ['content-digest', 'content-type'] : [])];
  return verifyMessage(response, { requiredComponents: required, coverageCode: 'signature_invalid', body }, options);
}
