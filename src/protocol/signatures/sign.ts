/**
 * Producing signatures: a request signed as the UCP draft requires of a Platform, a response as it
 * requires of a Business. Each returns the headers to add; the caller sends the body it passed,
 * byte-for-byte, since the digest covers exactly those bytes.
 */
import { signatureBase, headerValue, type MessageHeaders, type RequestParts } from './base.js';
import { signBase } from './crypto.js';
import { contentDigest } from './digest.js';
import { serializeSignatureField, serializeSignatureInput, signatureParamsList, type CoveredComponent } from './fields.js';
import { serializeInnerList } from 'structured-headers';
import type { SigningKey } from './jwk.js';

/**
 * The headers a signer adds, lower-cased. `content-digest` is absent when the message has no body.
 * A type alias (not an interface) so it spreads into any header record.
 */
export type SignatureHeaders = {
  readonly 'content-digest'?: string;
  readonly 'signature-input': string;
  readonly signature: string;
};

export interface SignOptions {
  /** Unix seconds for `created`; a request may leave it out, a response signature always has one. */
  readonly created?: number;
  /** Unix seconds for `expires`: verifiers refuse the signature afterwards. */
  readonly expires?: number;
  /** The signature's label in both fields; `sig1` by default. */
  readonly label?: string;
}

/** The message's headers with the computed `content-digest` laid over them, for building the base. */
function withDigest(headers: MessageHeaders, digest: string | undefined): MessageHeaders {
  if (digest === undefined) return headers;
  return { get: (name: string) => (name.toLowerCase() === 'content-digest' ? digest : (headerValue(headers, name) ?? null)) };
}

function produce(
  key: SigningKey,
  components: readonly CoveredComponent[],
  options: SignOptions,
  build: (serializedParams: string) => string,
): { 'signature-input': string; signature: string } {
  const label = options.label ?? 'sig1';
  const list = signatureParamsList(components, {
    ...(options.created === undefined ? {} : { created: options.created }),
    ...(options.expires === undefined ? {} : { expires: options.expires }),
    keyid: key.kid,
  });
  const signature = signBase(key.algorithm, key.privateKey, build(serializeInnerList(list)));
  return { 'signature-input': serializeSignatureInput(label, list), signature: serializeSignatureField(label, signature) };
}

function requireContentType(headers: MessageHeaders, what: string): void {
  if (headerValue(headers, 'content-type') === undefined) {
    throw new TypeError(`${what} has a body but no Content-Type header; set it before signing, since the signature covers it.`);
  }
}

/**
 * The components a request signature must cover (R-SIG2): `@method`, `@authority`, `@path`;
 * `@query` when the target has a query; `ucp-agent`, `idempotency-key` when sent; `content-digest`
 * and `content-type` when there is a body.
 */
export function requiredRequestComponents(request: RequestParts, hasBody: boolean): CoveredComponent[] {
  const names = ['@method', '@authority', '@path'];
  if (request.query !== undefined && request.query !== '') names.push('@query');
  if (headerValue(request.headers, 'ucp-agent') !== undefined) names.push('ucp-agent');
  if (headerValue(request.headers, 'idempotency-key') !== undefined) names.push('idempotency-key');
  if (hasBody) names.push('content-digest', 'content-type');
  return names.map((name) => ({ name }));
}

/**
 * Signs a request (R-SIG2). `request.headers` are the headers that will be sent (Content-Type,
 * UCP-Agent, Idempotency-Key as applicable); `body` the exact bytes (empty or absent for none).
 */
export function signRequest(
  request: RequestParts,
  body: Uint8Array | undefined,
  key: SigningKey,
  options: SignOptions = {},
): SignatureHeaders {
  const hasBody = body !== undefined && body.byteLength > 0;
  if (hasBody) requireContentType(request.headers, 'The request');
  const digest = hasBody ? contentDigest(body) : undefined;
  const message: RequestParts = { ...request, headers: withDigest(request.headers, digest) };
  const components = requiredRequestComponents(request, hasBody);
  const signed = produce(key, components, options, (params) => signatureBase(message, components, params));
  return digest === undefined ? signed : { 'content-digest': digest, ...signed };
}

/**
 * Signs a response (R-SIG3) over `@status`, and `content-digest` and `content-type` when there is
 * a body, with `created` (which a response signature always carries).
 */
export function signResponse(
  response: { readonly status: number; readonly headers: MessageHeaders },
  body: Uint8Array | undefined,
  key: SigningKey,
  options: SignOptions & { readonly created: number },
): SignatureHeaders {
  const hasBody = body !== undefined && body.byteLength > 0;
  if (hasBody) requireContentType(response.headers, 'The response');
  const digest = hasBody ? contentDigest(body) : undefined;
  const message = { status: response.status, headers: withDigest(response.headers, digest) };
  const components: CoveredComponent[] = [{ name: '@status' }, ...(hasBody ? [{ name: 'content-digest' }, { name: 'content-type' }] : [])];
  const signed = produce(key, components, options, (params) => signatureBase(message, components, params));
  return digest === undefined ? signed : { 'content-digest': digest, ...signed };
}
