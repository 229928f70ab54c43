/**
 * HTTP Message Signatures for UCP (RFC 9421, with RFC 9530 `Content-Digest`), for both sides:
 *
 * - Keys (`jwk.ts`, `key-file.ts`, `profile-keys.ts`): a private JWK or JWK Set file becomes a
 *   `SigningKeySet` — the key that signs and the public JWKs to publish in the profile's `keys[]`;
 *   `profileKeys(profile)` reads what a counterparty publishes (`keys[]`, `signing_keys[]`).
 * - Signing (`sign.ts`): `signRequest` (a Platform) and `signResponse` (a Business) return the
 *   `content-digest`, `signature-input` and `signature` headers to add; send the same body bytes.
 * - Verifying (`verify.ts`): `verifyRequest` / `verifyResponse` check one message against the
 *   signer's published keys and return the signature that verified, or throw `SignatureError` whose
 *   `code` is the draft's (`signature_missing`, `signature_invalid`, `key_not_found`,
 *   `digest_mismatch`, `algorithm_unsupported`) with `httpStatus` and `jsonRpcCode` to answer with.
 * - Building blocks (`base.ts`, `fields.ts`, `digest.ts`): the signature base, the two fields as
 *   RFC 8941 dictionaries, and the digest — for tests and for anything the helpers above do not do.
 *
 * Messages are described, not taken from a framework: a request is its method, authority, path,
 * query and headers (Node's `IncomingHttpHeaders`, a plain record or a Fetch `Headers`), and the
 * body is passed as raw bytes alongside.
 */
export { SIGNATURE_ERROR_CODES, SIGNATURE_ERROR_WIRE, SignatureError, type SignatureErrorCode } from './errors.js';
export { contentDigest, verifyContentDigest, type DigestAlgorithm } from './digest.js';
export {
  parseSignatureField,
  parseSignatureInput,
  serializeSignatureField,
  serializeSignatureInput,
  signatureParamsList,
  type CoveredComponent,
  type SignatureInput,
  type SignatureParameters,
} from './fields.js';
export { headerValue, signatureBase, type MessageHeaders, type MessageParts, type RequestParts, type ResponseParts } from './base.js';
export {
  algorithmOf,
  generateSigningJwk,
  isSignatureCapable,
  jwkThumbprint,
  publicJwk,
  readSigningKeySet,
  signingKeyFromJwk,
  type PublicJwk,
  type SignatureAlgorithm,
  type SigningKey,
  type SigningKeySet,
} from './jwk.js';
export { loadSigningKeyFile, writeNewSigningKeyFile } from './key-file.js';
export { profileKeys, publishesKeys } from './profile-keys.js';
export { requiredRequestComponents, signRequest, signResponse, type SignatureHeaders, type SignOptions } from './sign.js';
export { hasSignatureHeaders, verifyRequest, verifyResponse, type VerifiedSignature, type VerifyOptions } from './verify.js';
