/**
 * The `Signature-Input` and `Signature` fields (RFC 9421 §4): RFC 8941 dictionaries keyed by
 * signature label, parsed and written with a Structured Fields library so quoting, parameters and
 * byte sequences follow the RFC exactly. The `@signature-params` line of a signature base is the
 * serialisation of a member's inner list, so it is kept with each parsed member.
 */
import {
  parseDictionary,
  serializeDictionary,
  serializeInnerList,
  type BareItem,
  type Dictionary,
  type InnerList,
  type Item,
  type Parameters,
} from 'structured-headers';
import { causeMessage } from '../../errors.js';
import { SignatureError } from './errors.js';

/**
 * One covered component: a derived component (`@method`, `@status`, …) or a lower-cased field
 * name, with `key` selecting one member of a Dictionary field (RFC 9421 §2.1.2), as WBA-shape
 * signatures do for `signature-agent`.
 */
export interface CoveredComponent {
  readonly name: string;
  readonly key?: string;
}

/** The signature parameters of RFC 9421 §2.3 that UCP uses; others are kept in `serializedParams` only. */
export interface SignatureParameters {
  /** Unix seconds. */
  readonly created?: number;
  /** Unix seconds; a verifier refuses the signature after it. */
  readonly expires?: number;
  readonly keyid?: string;
  /** An RFC 9421 algorithm name (`ecdsa-p256-sha256`); UCP derives the algorithm from the key instead, so signers leave it out. */
  readonly alg?: string;
  readonly nonce?: string;
  readonly tag?: string;
}

/** One member of `Signature-Input`. */
export interface SignatureInput {
  readonly label: string;
  readonly components: readonly CoveredComponent[];
  readonly params: SignatureParameters;
  /** The member's inner list serialised: the value of the `@signature-params` line. */
  readonly serializedParams: string;
}

/** Repeated field lines combine with ", " (RFC 9110 §5.3), which is how RFC 8941 dictionaries merge. */
export function joinFieldLines(value: string | readonly string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  return value.length === 0 ? undefined : value.join(', ');
}

function parseField(name: string, value: string): Dictionary {
  try {
    return parseDictionary(value);
  } catch (cause) {
    throw new SignatureError('signature_invalid', `The ${name} header is not an RFC 8941 dictionary (${causeMessage(cause)}).`, { cause });
  }
}

/** A dictionary member that is an inner list rather than an item. */
export function isInnerList(member: Item | InnerList): member is InnerList {
  return Array.isArray(member[0]);
}

function integerParam(params: Parameters, name: string, label: string): number | undefined {
  const value: unknown = params.get(name);
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new SignatureError('signature_invalid', `Signature-Input ${label}: ${name} must be an integer (Unix seconds).`);
  }
  return value;
}

function stringParam(params: Parameters, name: string, label: string): string | undefined {
  const value: unknown = params.get(name);
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw new SignatureError('signature_invalid', `Signature-Input ${label}: ${name} must be a quoted string.`);
  return value;
}

function coveredComponent(item: Item, label: string): CoveredComponent {
  const name: unknown = item[0];
  const params = item[1];
  if (typeof name !== 'string') {
    throw new SignatureError(
      'signature_invalid',
      `Signature-Input ${label}: every covered component must be a quoted string such as "@method".`,
    );
  }
  if (name !== name.toLowerCase()) {
    throw new SignatureError('signature_invalid', `Signature-Input ${label}: component "${name}" must be lower-case.`);
  }
  let key: string | undefined;
  for (const [param, value] of params) {
    if (param === 'key' && typeof value === 'string') key = value;
    else
      throw new SignatureError(
        'signature_invalid',
        `Signature-Input ${label}: component parameter ;${param} on "${name}" is not supported.`,
      );
  }
  return key === undefined ? { name } : { name, key };
}

/**
 * Every member of a `Signature-Input` field, by label. `undefined` or an empty field gives an empty
 * map; a malformed one throws `SignatureError('signature_invalid')`.
 */
export function parseSignatureInput(field: string | readonly string[] | undefined): Map<string, SignatureInput> {
  const value = joinFieldLines(field);
  const inputs = new Map<string, SignatureInput>();
  if (value === undefined || value.trim() === '') return inputs;
  for (const [label, member] of parseField('Signature-Input', value)) {
    if (!isInnerList(member)) {
      throw new SignatureError(
        'signature_invalid',
        `Signature-Input ${label} must be an inner list of components, e.g. ("@method" "@path");keyid="…".`,
      );
    }
    const [items, params] = member;
    const components = items.map((item) => coveredComponent(item, label));
    const seen = new Set<string>();
    for (const c of components) {
      const id = c.key === undefined ? c.name : `${c.name};key=${c.key}`;
      if (seen.has(id)) throw new SignatureError('signature_invalid', `Signature-Input ${label} covers "${c.name}" twice.`);
      if (c.name === '@signature-params')
        throw new SignatureError('signature_invalid', `Signature-Input ${label} must not cover "@signature-params".`);
      seen.add(id);
    }
    const created = integerParam(params, 'created', label);
    const expires = integerParam(params, 'expires', label);
    const keyid = stringParam(params, 'keyid', label);
    const alg = stringParam(params, 'alg', label);
    const nonce = stringParam(params, 'nonce', label);
    const tag = stringParam(params, 'tag', label);
    inputs.set(label, {
      label,
      components,
      params: {
        ...(created === undefined ? {} : { created }),
        ...(expires === undefined ? {} : { expires }),
        ...(keyid === undefined ? {} : { keyid }),
        ...(alg === undefined ? {} : { alg }),
        ...(nonce === undefined ? {} : { nonce }),
        ...(tag === undefined ? {} : { tag }),
      },
      serializedParams: serializeInnerList(member),
    });
  }
  return inputs;
}

/** Every member of a `Signature` field: label → signature bytes. A malformed field throws `signature_invalid`. */
export function parseSignatureField(field: string | readonly string[] | undefined): Map<string, Uint8Array> {
  const value = joinFieldLines(field);
  const signatures = new Map<string, Uint8Array>();
  if (value === undefined || value.trim() === '') return signatures;
  for (const [label, member] of parseField('Signature', value)) {
    const bytes: unknown = member[0];
    if (!(bytes instanceof ArrayBuffer)) {
      throw new SignatureError('signature_invalid', `Signature ${label} must be a byte sequence (${label}=:<base64>:).`);
    }
    signatures.set(label, new Uint8Array(bytes));
  }
  return signatures;
}

/** The inner list describing one signature, in the parameter order RFC 9421's examples use. */
export function signatureParamsList(components: readonly CoveredComponent[], params: SignatureParameters): InnerList {
  const items: Item[] = components.map((c) => [c.name, new Map<string, BareItem>(c.key === undefined ? [] : [['key', c.key]])]);
  const parameters: Parameters = new Map();
  if (params.created !== undefined) parameters.set('created', params.created);
  if (params.expires !== undefined) parameters.set('expires', params.expires);
  if (params.nonce !== undefined) parameters.set('nonce', params.nonce);
  if (params.alg !== undefined) parameters.set('alg', params.alg);
  if (params.keyid !== undefined) parameters.set('keyid', params.keyid);
  if (params.tag !== undefined) parameters.set('tag', params.tag);
  return [items, parameters];
}

/** A `Signature-Input` field value with one member. */
export function serializeSignatureInput(label: string, list: InnerList): string {
  return serializeDictionary(new Map([[label, list]]));
}

/** A `Signature` field value with one member: `label=:<base64>:`. */
export function serializeSignatureField(label: string, signature: Uint8Array): string {
  return serializeDictionary(new Map([[label, [signature, new Map()]]]));
}
