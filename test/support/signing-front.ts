/**
 * A signing Business for Platform-side tests, on 127.0.0.1: a front in front of our real business
 * server that does what the draft asks of a Business that signs (R-SIG1–R-SIG3) — publishes its
 * key in `/.well-known/ucp` `keys[]`, verifies each request's RFC 9421 signature against the keys
 * of the caller's `UCP-Agent` profile, refuses with the draft's codes, and signs every answer.
 *
 * Either implementation does the cryptography: `ours` (src/protocol/signatures) or `library`
 * (the independent `http-message-signatures` package, with digests computed here by hand), so an
 * interop test can put our SDK in front of a Business that shares no code with it.
 *
 * `flaws` make it a deliberately broken Business for the conformance checker: each one skips one
 * check a signing Business must make.
 *
 * The backend's own signature checks never see our signatures: the front strips them, since it
 * rewrites Host (the backend would verify a different `@authority`).
 */
import { createHash, createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createSigner, createVerifier, httpbis, type Request as LibRequest } from 'http-message-signatures';
import { parseDictionary } from 'structured-headers';
import { request } from 'undici';
import {
  hasSignatureHeaders,
  profileKeys,
  signResponse,
  SignatureError,
  SIGNATURE_ERROR_WIRE,
  verifyRequest,
  type PublicJwk,
  type SignatureErrorCode,
  type SigningKeySet,
} from '../../src/protocol/signatures/index.js';

export type Implementation = 'ours' | 'library';

/** A check a broken Business leaves out. */
export type SigningFlaw =
  /** Unsigned requests are served even though signatures are required. */
  | 'accepts_unsigned'
  /** A keyid its caller's profile does not list is served. */
  | 'accepts_unknown_key'
  /** The signature bytes are never checked. */
  | 'accepts_forged'
  /** Content-Digest is never compared with the body. */
  | 'accepts_tampered'
  /** The answer's body is changed after it was signed (one byte of whitespace appended). */
  | 'tampers_answers'
  /** Unsigned requests are refused, but with signature_invalid instead of signature_missing. */
  | 'misnames_missing'
  /** Answers go out unsigned although keys are published. */
  | 'unsigned_answers';

export interface SigningFrontOptions {
  /** The real Business behind the front, `http://127.0.0.1:<port>`. */
  readonly backend: string;
  /** The Business's key: published in `keys[]` and used to sign answers. */
  readonly businessKey?: SigningKeySet;
  /** Published instead of the key's public part (e.g. a malformed key set). */
  readonly publishKeys?: readonly unknown[];
  /** `required`: refuse unsigned requests; `if-present`: verify only signed ones; `off`: verify nothing. */
  readonly verify: 'off' | 'if-present' | 'required';
  readonly implementation?: Implementation;
  readonly flaws?: readonly SigningFlaw[];
}

export interface SigningFront {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Requests answered so far with each refusal code, and `served`. */
  readonly outcomes: Readonly<Record<string, number>>;
  close(): Promise<void>;
}

/** Our profile answers are cacheable, as the draft requires of published artifacts. */
const CACHEABLE = { 'cache-control': 'public, max-age=300' };
const LIBRARY_ALG: Readonly<Record<string, string>> = { 'P-256': 'ecdsa-p256-sha256', 'P-384': 'ecdsa-p384-sha384', Ed25519: 'ed25519' };
/** Headers of the backend's answer not passed on: the front sets its own framing. */
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The profile URL a request names in `UCP-Agent` (REST and MCP alike), or undefined. */
function agentProfile(headers: Record<string, string>): string | undefined {
  const field = headers['ucp-agent'];
  if (field === undefined) return undefined;
  try {
    const member = parseDictionary(field).get('profile');
    const value: unknown = member?.[0];
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

async function fetchKeys(profileUrl: string): Promise<unknown[]> {
  const answer = await request(profileUrl);
  return profileKeys(await answer.body.json());
}

function sha256Digest(body: Uint8Array): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

function nodeJwk(jwk: unknown): JsonWebKey {
  const out: JsonWebKey = {};
  if (typeof jwk === 'object' && jwk !== null) for (const [k, v] of Object.entries(jwk)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** The library's verification of a request, with the draft's coverage and a hand-made digest check. */
async function libraryVerify(req: LibRequest, body: Buffer, keys: readonly unknown[], flaws: ReadonlySet<SigningFlaw>): Promise<void> {
  const headers = req.headers;
  const has = (name: string): boolean => headers[name] !== undefined;
  const required = ['@method', '@authority', '@path'];
  if (new URL(req.url).search !== '') required.push('@query');
  if (has('ucp-agent')) required.push('ucp-agent');
  if (body.byteLength > 0) required.push('content-digest', 'content-type');
  let unknownKey = false;
  let ok: boolean | null;
  try {
    ok = await httpbis.verifyMessage(
      {
        requiredFields: required,
        tolerance: 60,
        keyLookup: (params) => {
          const jwk = keys.find((k) => typeof k === 'object' && k !== null && (k as { kid?: unknown }).kid === params.keyid);
          if (jwk === undefined) {
            unknownKey = true;
            if (flaws.has('accepts_unknown_key')) return Promise.resolve({ verify: () => Promise.resolve(true) });
            return Promise.resolve(null);
          }
          const crv = (jwk as { crv?: unknown }).crv;
          const alg = LIBRARY_ALG[typeof crv === 'string' ? crv : ''] ?? 'unsupported';
          const key = createPublicKey({ key: nodeJwk(jwk), format: 'jwk' });
          const verify = flaws.has('accepts_forged') ? () => Promise.resolve(true) : createVerifier(key, alg);
          return Promise.resolve({ id: String(params.keyid), algs: [alg], verify });
        },
      },
      req,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/missing|required/i.test(message)) throw new SignatureError('signature_missing', `http-message-signatures: ${message}`);
    if (unknownKey) throw new SignatureError('key_not_found', `http-message-signatures: ${message}`);
    throw new SignatureError('signature_invalid', `http-message-signatures: ${message}`);
  }
  // The library answers null when no signature could be checked: here, because its keyid is unknown.
  if (ok === null && unknownKey)
    throw new SignatureError('key_not_found', 'http-message-signatures: the keyid is not in the signer profile keys[]');
  if (ok === null) throw new SignatureError('signature_missing', 'http-message-signatures found no signature to verify');
  if (!ok) throw new SignatureError(unknownKey ? 'key_not_found' : 'signature_invalid', 'http-message-signatures: signature rejected');
  if (body.byteLength > 0 && !flaws.has('accepts_tampered') && headers['content-digest'] !== sha256Digest(body)) {
    throw new SignatureError('digest_mismatch', 'Content-Digest does not match the body (checked by hand beside the library)');
  }
}

async function librarySign(
  status: number,
  headers: Record<string, string>,
  body: Buffer,
  key: { kid: string; privateKey: KeyObject; crv: string },
): Promise<Record<string, string>> {
  const out: Record<string, string> = { ...headers };
  const fields = ['@status'];
  if (body.byteLength > 0) {
    out['content-digest'] = sha256Digest(body);
    fields.push('content-digest', 'content-type');
  }
  const signer = createSigner(key.privateKey, LIBRARY_ALG[key.crv] ?? 'ecdsa-p256-sha256', key.kid);
  const signed = await httpbis.signMessage(
    { key: signer, name: 'sig1', fields, params: ['created', 'keyid'], paramValues: { created: new Date() } },
    { status, headers: out },
  );
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return result;
}

export async function startSigningFront(options: SigningFrontOptions): Promise<SigningFront> {
  const implementation = options.implementation ?? 'ours';
  const flaws = new Set(options.flaws ?? []);
  const key = options.businessKey;
  const published: readonly unknown[] = options.publishKeys ?? (key === undefined ? [] : key.published);
  const privateJwk = key === undefined ? undefined : key.signing.privateKey.export({ format: 'jwk' });
  const outcomes: Record<string, number> = {};
  const count = (what: string): void => void (outcomes[what] = (outcomes[what] ?? 0) + 1);
  let origin = '';

  async function answer(res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer): Promise<void> {
    let out: Record<string, string> = { ...headers, 'content-length': String(body.byteLength) };
    if (key !== undefined && !flaws.has('unsigned_answers')) {
      if (implementation === 'library') {
        out = await librarySign(status, out, body, {
          kid: key.signing.kid,
          privateKey: createPrivateKey({ key: nodeJwk(privateJwk), format: 'jwk' }),
          crv: key.signing.publicJwk.crv ?? 'P-256',
        });
      } else {
        out = { ...out, ...signResponse({ status, headers: out }, body, key.signing, { created: Math.floor(Date.now() / 1000) }) };
      }
    }
    const sent = flaws.has('tampers_answers') && body.byteLength > 0 ? Buffer.concat([body, Buffer.from(' ')]) : body;
    out['content-length'] = String(sent.byteLength);
    res.writeHead(status, out).end(sent);
  }

  async function refuse(res: ServerResponse, isMcp: boolean, body: Buffer, error: SignatureError): Promise<void> {
    count(error.code);
    const wire = SIGNATURE_ERROR_WIRE[error.code];
    let payload: unknown;
    if (isMcp) {
      let id: unknown = null;
      try {
        const parsed: unknown = JSON.parse(body.toString('utf8'));
        if (typeof parsed === 'object' && parsed !== null && 'id' in parsed) id = parsed.id;
      } catch {
        // An unreadable body has no id to echo.
      }
      payload = {
        jsonrpc: '2.0',
        id,
        error: { code: wire.jsonRpcCode, message: error.message, data: { code: error.code, content: error.message } },
      };
    } else {
      payload = {
        ucp: { version: '2026-08-25', status: 'error' },
        messages: [{ type: 'error', code: error.code, content: error.message, severity: 'unrecoverable' }],
      };
    }
    await answer(res, wire.httpStatus, { 'content-type': 'application/json' }, Buffer.from(JSON.stringify(payload)));
  }

  async function check(req: IncomingMessage, headers: Record<string, string>, body: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    const signed = hasSignatureHeaders({ status: 0, headers });
    if (!signed) {
      if (options.verify === 'required' && flaws.has('misnames_missing')) {
        throw new SignatureError('signature_invalid', 'Signature verification failed.');
      }
      if (options.verify === 'required' && !flaws.has('accepts_unsigned')) {
        throw new SignatureError(
          'signature_missing',
          'This Business requires signed requests: sign with a key listed in your profile keys[].',
        );
      }
      return;
    }
    if (options.verify === 'off') return;
    const profile = agentProfile(headers);
    const keys = profile === undefined ? [] : await fetchKeys(profile);
    if (implementation === 'library') {
      await libraryVerify({ method: req.method ?? 'GET', url: url.href, headers }, body, keys, flaws);
      return;
    }
    try {
      verifyRequest(
        {
          method: req.method ?? 'GET',
          authority: headers['host'] ?? '',
          path: url.pathname,
          query: url.search === '' ? undefined : url.search.slice(1),
          headers,
        },
        body,
        { keys, now: Math.floor(Date.now() / 1000) },
      );
    } catch (error) {
      if (!(error instanceof SignatureError)) throw error;
      if (error.code === 'key_not_found' && flaws.has('accepts_unknown_key')) return;
      if (error.code === 'signature_invalid' && flaws.has('accepts_forged')) return;
      if (error.code === 'digest_mismatch' && flaws.has('accepts_tampered')) return;
      throw error;
    }
  }

  async function profile(res: ServerResponse): Promise<void> {
    const backendProfile = await request(`${options.backend}/.well-known/ucp`);
    const text = (await backendProfile.body.text()).split(options.backend).join(origin);
    const document = JSON.parse(text) as Record<string, unknown>;
    if (published.length > 0) document['keys'] = published;
    res.writeHead(200, { 'content-type': 'application/json', ...CACHEABLE }).end(JSON.stringify(document));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://front').pathname;
    if (path === '/.well-known/ucp') return profile(res);
    const body = await readBody(req);
    const headers = headerRecord(req);
    const isMcp = path.endsWith('/mcp');
    try {
      await check(req, headers, body);
    } catch (error) {
      if (error instanceof SignatureError) return refuse(res, isMcp, body, error);
      throw error;
    }
    count('served');
    const forwarded: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (name === 'host' || name === 'signature' || name === 'signature-input' || name === 'content-length') continue;
      forwarded[name] = value;
    }
    const upstream = await request(`${options.backend}${req.url ?? '/'}`, {
      method: (req.method ?? 'GET') as 'GET',
      headers: forwarded,
      ...(body.byteLength > 0 ? { body } : {}),
    });
    const answerBody = Buffer.from(await upstream.body.arrayBuffer());
    const answerHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(upstream.headers)) {
      if (value === undefined || HOP_HEADERS.has(name)) continue;
      answerHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    await answer(res, upstream.statusCode, answerHeaders, answerBody);
  }

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`signing front failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('signing front has no TCP address');
  origin = `http://127.0.0.1:${address.port}`;
  return {
    url: origin,
    outcomes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The code a refusal of the front carried, for assertions. */
export function isSignatureErrorCode(value: unknown): value is SignatureErrorCode {
  return typeof value === 'string' && value in SIGNATURE_ERROR_WIRE;
}

export type { PublicJwk };
