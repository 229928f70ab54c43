/**
 * The signature failures of the UCP draft (Message Signatures, "Error Handling"), each with the
 * HTTP status and JSON-RPC code a Business answers it with. One table, read by both bindings and
 * by a Platform that wants to explain a refusal.
 */

/** Why a signed (or unsigned) message was not accepted. */
export type SignatureErrorCode =
  /** No usable signature: the headers are absent, or every signature leaves a required component uncovered (treated as unsigned). Sign the request, covering what the draft requires. */
  | 'signature_missing'
  /** A signature was found but does not verify (wrong key, altered covered component, expired, malformed header). Re-sign the exact bytes sent. */
  | 'signature_invalid'
  /** The `keyid` is not among the signature-capable keys of the signer's profile. Publish the key in the profile's `keys[]`, or sign with one that is. */
  | 'key_not_found'
  /** `Content-Digest` does not match the body bytes received (or names no algorithm the verifier knows). Send the body byte-for-byte as digested. */
  | 'digest_mismatch'
  /** The key's type, curve or algorithm is not one this verifier supports (ES256 always is). Sign with an ES256 key. */
  | 'algorithm_unsupported';

export const SIGNATURE_ERROR_CODES: readonly SignatureErrorCode[] = [
  'signature_missing',
  'signature_invalid',
  'key_not_found',
  'digest_mismatch',
  'algorithm_unsupported',
];

/** How each code travels: the REST status, and the JSON-RPC `error.code` on MCP (with `data.code`). */
export const SIGNATURE_ERROR_WIRE: Readonly<Record<SignatureErrorCode, { readonly httpStatus: number; readonly jsonRpcCode: number }>> = {
  signature_missing: { httpStatus: 401, jsonRpcCode: -32000 },
  signature_invalid: { httpStatus: 401, jsonRpcCode: -32000 },
  key_not_found: { httpStatus: 401, jsonRpcCode: -32000 },
  digest_mismatch: { httpStatus: 400, jsonRpcCode: -32600 },
  algorithm_unsupported: { httpStatus: 400, jsonRpcCode: -32600 },
};

/**
 * A message failed signature or digest checks. `message` says what to fix and is safe to send to
 * the caller (it names components, labels and key ids, never key material).
 */
export class SignatureError extends Error {
  constructor(
    readonly code: SignatureErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SignatureError';
  }

  get httpStatus(): number {
    return SIGNATURE_ERROR_WIRE[this.code].httpStatus;
  }

  get jsonRpcCode(): number {
    return SIGNATURE_ERROR_WIRE[this.code].jsonRpcCode;
  }
}
