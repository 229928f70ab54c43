import { describe, expect, it } from 'vitest';
import { SignatureError } from './errors.js';
import {
  parseSignatureField,
  parseSignatureInput,
  serializeSignatureField,
  serializeSignatureInput,
  signatureParamsList,
} from './fields.js';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof SignatureError ? error.code : `not a SignatureError: ${String(error)}`;
  }
}

describe('Signature-Input and Signature fields (RFC 9421 §4, RFC 8941)', () => {
  it('parses the draft REST request example: components, keyid, the @signature-params value (R-SIG2)', () => {
    const field =
      'sig1=("@method" "@authority" "@path" "ucp-agent" "idempotency-key" "content-digest" "content-type");keyid="platform-2026"';
    const sig1 = parseSignatureInput(field).get('sig1');
    expect(sig1?.components.map((c) => c.name)).toEqual([
      '@method',
      '@authority',
      '@path',
      'ucp-agent',
      'idempotency-key',
      'content-digest',
      'content-type',
    ]);
    expect(sig1?.params).toEqual({ keyid: 'platform-2026' });
    expect(sig1?.serializedParams).toBe(field.slice('sig1='.length));
  });

  it('parses the draft response example and the WBA dual-audience example (R-SIG3)', () => {
    const response = parseSignatureInput('sig1=("@status" "content-digest" "content-type");created=1738617601;keyid="merchant-2026"').get(
      'sig1',
    );
    expect(response?.params).toEqual({ created: 1738617601, keyid: 'merchant-2026' });
    const wba = parseSignatureInput(
      'sig1=("@method" "@authority" "@path" "signature-agent";key="sig1" "ucp-agent" "idempotency-key" "content-digest" "content-type");keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";created=1738617600;expires=1738621200;tag="web-bot-auth"',
    ).get('sig1');
    expect(wba?.components[3]).toEqual({ name: 'signature-agent', key: 'sig1' });
    expect(wba?.params).toEqual({
      keyid: 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U',
      created: 1738617600,
      expires: 1738621200,
      tag: 'web-bot-auth',
    });
    expect(wba?.serializedParams).toContain('"signature-agent";key="sig1"');
  });

  it('keeps several labels, joins repeated field lines, and treats an absent field as no signatures', () => {
    const inputs = parseSignatureInput(['a=("@method");keyid="k1"', 'b=("@path");keyid="k2"']);
    expect([...inputs.keys()]).toEqual(['a', 'b']);
    expect(parseSignatureInput(undefined).size).toBe(0);
    expect(parseSignatureField('').size).toBe(0);
  });

  it('round-trips what it writes', () => {
    const list = signatureParamsList([{ name: '@status' }, { name: 'content-digest' }, { name: 'signature-agent', key: 'sig1' }], {
      created: 1700000000,
      expires: 1700000600,
      keyid: 'k "quoted"',
      tag: 'web-bot-auth',
    });
    const header = serializeSignatureInput('sig2', list);
    expect(header).toBe(
      'sig2=("@status" "content-digest" "signature-agent";key="sig1");created=1700000000;expires=1700000600;keyid="k \\"quoted\\"";tag="web-bot-auth"',
    );
    const parsed = parseSignatureInput(header).get('sig2');
    expect(parsed?.params.keyid).toBe('k "quoted"');
    expect(`sig2=${parsed?.serializedParams ?? ''}`).toBe(header);
    const bytes = Uint8Array.from([0, 1, 2, 250, 251, 252]);
    expect(serializeSignatureField('sig2', bytes)).toBe('sig2=:AAEC+vv8:');
    expect(parseSignatureField('sig2=:AAEC+vv8:').get('sig2')).toEqual(bytes);
  });

  it('refuses malformed fields as signature_invalid, saying which part is wrong', () => {
    expect(codeOf(() => parseSignatureInput('sig1=("@method"'))).toBe('signature_invalid');
    expect(codeOf(() => parseSignatureInput('sig1="@method"'))).toBe('signature_invalid');
    expect(codeOf(() => parseSignatureInput('sig1=(@method)'))).toBe('signature_invalid');
    expect(codeOf(() => parseSignatureInput('sig1=("@method");created="yesterday"'))).toBe('signature_invalid');
    expect(codeOf(() => parseSignatureInput('sig1=("@method");keyid=k1'))).toBe('signature_invalid');
    expect(codeOf(() => parseSignatureInput('sig1=("Content-Type")'))).toBe('signature_invalid');
    expect(codeOf(() => parseSignatureInput('sig1=("@method" "@method")'))).toBe('signature_invalid');
    expect(codeOf(() => parseSignatureInput('sig1=("@signature-params")'))).toBe('signature_invalid');
    expect(codeOf(() => parseSignatureInput('sig1=("content-digest";sf)'))).toBe('signature_invalid');
    expect(codeOf(() => parseSignatureField('sig1="abc"'))).toBe('signature_invalid');
    expect(codeOf(() => parseSignatureField('sig1=:not base64'))).toBe('signature_invalid');
  });
});
