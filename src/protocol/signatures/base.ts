/**
 * The signature base of RFC 9421 §2.5: one line per covered component, then `@signature-params`.
 * Both a signer and a verifier build it from the same message description, so the bytes agree.
 */
import { parseDictionary, serializeInnerList, serializeItem, type BareItem, type Dictionary } from 'structured-headers';
import { causeMessage } from '../../errors.js';
import { SignatureError } from './errors.js';
import { isInnerList, joinFieldLines, type CoveredComponent } from './fields.js';

/**
 * Header fields as Node gives them (`IncomingHttpHeaders`, names lower-cased, repeated lines as
 * an array or already joined) or a record with any casing; or a Fetch `Headers`.
 */
export type MessageHeaders =
  Readonly<Record<string, string | readonly string[] | number | undefined>> | { get(name: string): string | null };

/** A request as its signature sees it. */
export interface RequestParts {
  /** As sent, e.g. `POST`. */
  readonly method: string;
  /** host[:port] of the target, as the client addressed it (the `Host` header); compared lower-cased. */
  readonly authority: string;
  /** The absolute path, without the query; `''` is read as `/`. */
  readonly path: string;
  /** The query without its `?`; `undefined` when the target has no `?`. */
  readonly query?: string | undefined;
  readonly headers: MessageHeaders;
}

/** A response as its signature sees it. */
export interface ResponseParts {
  readonly status: number;
  readonly headers: MessageHeaders;
}

export type MessageParts = RequestParts | ResponseParts;

function isResponse(message: MessageParts): message is ResponseParts {
  return 'status' in message;
}

function isHeadersObject(headers: MessageHeaders): headers is { get(name: string): string | null } {
  return typeof headers.get === 'function';
}

/**
 * A header field's value for signing (RFC 9421 §2.1): lines joined with ", ", each trimmed;
 * `undefined` when the message does not carry the field.
 */
export function headerValue(headers: MessageHeaders, name: string): string | undefined {
  const lower = name.toLowerCase();
  if (isHeadersObject(headers)) return headers.get(lower) ?? undefined;
  let found: string | readonly string[] | number | undefined = headers[lower];
  if (found === undefined) {
    for (const [key, value] of Object.entries(headers)) {
      if (key.toLowerCase() === lower) found = value;
    }
  }
  if (found === undefined) return undefined;
  if (typeof found === 'number') return String(found);
  const lines = typeof found === 'string' ? [found] : found;
  return joinFieldLines(lines.map((line) => line.trim()));
}

function requestOnly(message: MessageParts, name: string): RequestParts {
  if (isResponse(message))
    throw new SignatureError('signature_invalid', `"${name}" describes a request; a response signature cannot cover it.`);
  return message;
}

function derivedValue(message: MessageParts, name: string): string {
  switch (name) {
    case '@method':
      return requestOnly(message, name).method;
    case '@authority':
      return requestOnly(message, name).authority.toLowerCase();
    case '@path':
      return requestOnly(message, name).path || '/';
    case '@query':
      return `?${requestOnly(message, name).query ?? ''}`;
    case '@status':
      if (!isResponse(message))
        throw new SignatureError('signature_invalid', '"@status" describes a response; a request signature cannot cover it.');
      return String(message.status);
    default:
      throw new SignatureError(
        'signature_invalid',
        `The derived component "${name}" is not supported here; cover @method, @authority, @path, @query or @status.`,
      );
  }
}

function dictionaryMember(field: string, value: string, key: string): string {
  let dictionary: Dictionary;
  try {
    dictionary = parseDictionary(value);
  } catch (cause) {
    throw new SignatureError(
      'signature_invalid',
      `The ${field} header is not an RFC 8941 dictionary (${causeMessage(cause)}), so ;key="${key}" cannot select from it.`,
      {
        cause,
      },
    );
  }
  const member = dictionary.get(key);
  if (member === undefined) throw new SignatureError('signature_invalid', `The ${field} header has no member "${key}".`);
  return isInnerList(member) ? serializeInnerList(member) : serializeItem(member);
}

/** The value of one covered component in `message`. Throws `signature_invalid` if the message lacks it. */
export function componentValue(message: MessageParts, component: CoveredComponent): string {
  if (component.name.startsWith('@')) {
    if (component.key !== undefined)
      throw new SignatureError('signature_invalid', `;key applies to dictionary fields, not to "${component.name}".`);
    return derivedValue(message, component.name);
  }
  const value = headerValue(message.headers, component.name);
  if (value === undefined) {
    throw new SignatureError('signature_invalid', `The signature covers the "${component.name}" header, which the message does not carry.`);
  }
  return component.key === undefined ? value : dictionaryMember(component.name, value, component.key);
}

function componentIdentifier(component: CoveredComponent): string {
  const params = new Map<string, BareItem>(component.key === undefined ? [] : [['key', component.key]]);
  return serializeItem([component.name, params]);
}

/**
 * The signature base for `message` covering `components`, ending with the `@signature-params`
 * line whose value is `serializedParams` (the Signature-Input member's inner list, serialised).
 */
export function signatureBase(message: MessageParts, components: readonly CoveredComponent[], serializedParams: string): string {
  const lines = components.map((c) => {
    const value = componentValue(message, c);
    if (/[\r\n]/.test(value))
      throw new SignatureError('signature_invalid', `The "${c.name}" value contains a line break and cannot be signed.`);
    return `${componentIdentifier(c)}: ${value}`;
  });
  lines.push(`"@signature-params": ${serializedParams}`);
  return lines.join('\n');
}
