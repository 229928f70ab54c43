/**
 * Message signatures (R-SIG1–R-SIG4), black box: the keys the Business publishes are well formed;
 * when it publishes keys, its answers are signed and verify (checked over every call the run
 * made); and when it requires signed requests, the four bad requests a Platform could send —
 * unsigned, signed by a key the Platform profile does not list, forged, tampered — are refused
 * with the draft's codes and statuses.
 */
import {
  algorithmOf,
  hasSignatureHeaders,
  profileKeys,
  SIGNATURE_ERROR_WIRE,
  SignatureError,
  verifyResponse,
  type SignatureErrorCode,
} from '../../protocol/signatures/index.js';
import { isRecord } from '../../protocol/guards.js';
import { fail, pass, skip, verdictOf, type BindingCheck, type Check, type RunCheck, type RunContext, type Verdict } from '../check.js';
import { describeRequest, describeResponse } from '../exchange.js';
import { callEvidence, type Call, type OperationClient } from '../operation-client.js';
import type { SigningProbe } from '../request-signing.js';
import type { Evidence } from '../types.js';

/** A search that should succeed, as a probe body. */
const PROBE_REQUEST = { query: 'store', pagination: { limit: 1 } };

/** JWK members that belong to a private key (RFC 7518 §6.2.2, §6.3.2; RFC 8037 §2; §6.4 for oct). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
/** Public members each well-known key type needs (RFC 7518 §6.2.1, RFC 8037 §2). */
const REQUIRED_MEMBERS: Readonly<Record<string, readonly string[]>> = { EC: ['crv', 'x', 'y'], OKP: ['crv', 'x'], RSA: ['n', 'e'] };

/** The keys as published: the raw profile document when the fetch kept it, else the validated one. */
function publishedKeys(ctx: RunContext): unknown[] {
  const raw = ctx.discovery.response?.body;
  return profileKeys(raw ?? ctx.discovery.profile);
}

/** What is wrong with one published key, or undefined. */
function keyProblem(key: unknown, index: number, kids: Set<string>): string | undefined {
  if (!isRecord(key)) return `keys[${index}] is not a JSON object`;
  const kid = key['kid'];
  if (typeof kid !== 'string' || kid === '') return `keys[${index}] has no "kid" (signatures name their key by it)`;
  if (kids.has(kid)) return `keys[${index}]: kid "${kid}" is published twice, so a signature cannot tell which key it names`;
  kids.add(kid);
  const kty = key['kty'];
  if (typeof kty !== 'string' || kty === '') return `key "${kid}" has no "kty"`;
  const leaked = PRIVATE_MEMBERS.filter((m) => m in key);
  if (leaked.length > 0) return `key "${kid}" publishes private members (${leaked.join(', ')}); publish the public part only`;
  const missing = (REQUIRED_MEMBERS[kty] ?? []).filter((m) => typeof key[m] !== 'string' || key[m] === '');
  if (missing.length > 0) return `key "${kid}" (kty ${kty}) lacks ${missing.map((m) => `"${m}"`).join(', ')}`;
  return undefined;
}

const keysWellFormed: RunCheck = {
  id: 'signatures.keys-well-formed',
  rule: 'R-SIG1',
  area: 'signatures',
  title: 'Published signing keys are public JWKs with unique kids (an unsupported key is allowed)',
  scope: 'run',
  needs: ['profile'],
  run(ctx) {
    const keys = publishedKeys(ctx);
    if (keys.length === 0)
      return Promise.resolve(skip('The Business publishes no keys[]; signatures are optional, and R-SIG1 judges published keys.'));
    const kids = new Set<string>();
    const problems: Evidence[] = [];
    keys.forEach((key, i) => {
      const problem = keyProblem(key, i, kids);
      if (problem !== undefined)
        problems.push({ expected: 'each keys[] entry is a public JWK with its own kid and kty', observed: problem });
    });
    const usable = keys.filter((k) => algorithmOf(k) !== undefined).length;
    return Promise.resolve(verdictOf(problems, `${keys.length} key(s) published, ${usable} usable for ES256/ES384/Ed25519 verification`));
  },
};

/** Every answer of `calls` the Business sent, judged against its published keys (R-SIG3). */
function answerProblems(calls: readonly Call[], keys: readonly unknown[]): Evidence[] {
  const problems: Evidence[] = [];
  for (const call of calls) {
    const x = call.exchange;
    if (x.status === undefined || x.headers === undefined) continue;
    const body = Buffer.from(x.responseText ?? '', 'utf8');
    const headers = x.headers;
    const expected = 'an answer signed over @status, content-digest and content-type that verifies with a key of keys[]';
    if (!hasSignatureHeaders({ status: x.status, headers })) {
      // The draft makes signatures optional on error answers; a successful answer must carry one here.
      if (x.status < 400) problems.push(callEvidence(call, expected, `HTTP ${x.status} answer without Signature-Input / Signature`));
      continue;
    }
    try {
      verifyResponse({ status: x.status, headers }, body, { keys, now: Math.floor(Date.now() / 1000) });
    } catch (error) {
      if (!(error instanceof SignatureError)) throw error;
      problems.push(callEvidence(call, expected, `${error.code}: ${error.message}`));
    }
  }
  return problems;
}

const answersSigned: BindingCheck = {
  id: 'signatures.answers-signed',
  rule: 'R-SIG3',
  area: 'signatures',
  title: 'When the Business publishes keys, its answers are signed and verify (digest over the exact bytes)',
  scope: 'binding',
  needs: ['profile', 'search'],
  async run(ctx, client) {
    const keys = publishedKeys(ctx);
    if (keys.length === 0) return skip('The Business publishes no keys[], so its answers need not be signed.');
    // One search of its own, so a run limited to these rules judges a successful answer too.
    await client.call('search', PROBE_REQUEST);
    const calls = ctx.calls.filter((c) => c.binding === client.binding);
    return verdictOf(answerProblems(calls, keys), `${calls.length} answer(s) verified`);
  },
};

/** The UCP code of a refusal: `error.data.code` (MCP) or `messages[0].code` (REST). */
function refusalCode(call: Call): string | undefined {
  const outcome = call.outcome;
  if (outcome.kind === 'success' || outcome.kind === 'business_error' || outcome.kind === 'broken') return undefined;
  const data = outcome.data;
  if (!isRecord(data)) return undefined;
  if (typeof data['code'] === 'string') return data['code'];
  const messages = data['messages'];
  const first: unknown = Array.isArray(messages) ? messages[0] : undefined;
  return isRecord(first) && typeof first['code'] === 'string' ? first['code'] : undefined;
}

function jsonRpcCode(call: Call): number | undefined {
  const error = call.rpc?.message?.['error'];
  return isRecord(error) && typeof error['code'] === 'number' ? error['code'] : undefined;
}

const NEEDS_KEY =
  'The run does not sign: pass --signing-key <file> (its public part listed in the Platform profile), or --serve-profile (the checker then makes a key for the run).';

interface RefusalCase {
  probe: SigningProbe;
  code: SignatureErrorCode;
  slug: string;
  rule: string;
  title: string;
}

const CASES: readonly RefusalCase[] = [
  {
    probe: 'unsigned',
    code: 'signature_missing',
    slug: 'unsigned-refused',
    rule: 'R-SIG2',
    title: 'An unsigned request is refused with signature_missing (401, -32000)',
  },
  {
    probe: 'unknown_key',
    code: 'key_not_found',
    slug: 'unknown-key-refused',
    rule: 'R-SIG2',
    title: 'A request signed by a key the Platform profile does not list is refused with key_not_found (401, -32000)',
  },
  {
    probe: 'forged',
    code: 'signature_invalid',
    slug: 'forged-refused',
    rule: 'R-SIG2',
    title: 'A forged signature under a listed kid is refused with signature_invalid (401, -32000)',
  },
  {
    probe: 'tampered',
    code: 'digest_mismatch',
    slug: 'tampered-refused',
    rule: 'R-SIG2',
    title: 'A body changed after signing is refused with digest_mismatch (400, -32600)',
  },
];

/** Whether the Business serves unsigned requests: then it does not require signatures, and refusals are not owed. */
async function servesUnsigned(client: OperationClient): Promise<Call> {
  return client.call('search', PROBE_REQUEST, { signing: 'unsigned' });
}

async function judgeRefusal(ctx: RunContext, client: OperationClient, c: RefusalCase): Promise<Verdict> {
  if (ctx.signer === undefined) return skip(NEEDS_KEY);
  const call = await client.call('search', PROBE_REQUEST, { signing: c.probe });
  if (call.outcome.kind === 'success') {
    const unsigned = c.probe === 'unsigned' ? call : await servesUnsigned(client);
    if (unsigned.outcome.kind === 'success') {
      return skip('The Business serves unsigned requests, so it does not require signatures; R-SIG2 refusals are checked when it does.');
    }
  }
  const wire = SIGNATURE_ERROR_WIRE[c.code];
  const expected =
    client.binding === 'mcp'
      ? `HTTP ${wire.httpStatus} with a JSON-RPC error ${wire.jsonRpcCode} whose data.code is "${c.code}"`
      : `HTTP ${wire.httpStatus} with messages[0].code "${c.code}"`;
  const code = refusalCode(call);
  const status = call.exchange.status;
  const rpc = jsonRpcCode(call);
  const right = code === c.code && status === wire.httpStatus && (client.binding === 'rest' || rpc === wire.jsonRpcCode);
  if (right) return pass(`refused: HTTP ${status} ${c.code}`);
  const observed =
    call.outcome.kind === 'success'
      ? 'the request was served'
      : `HTTP ${status ?? 'none'}${rpc === undefined ? '' : `, JSON-RPC ${rpc}`}, code ${code ?? 'none'}`;
  return fail(`expected ${c.code}; ${observed}`, [
    { expected, observed, request: describeRequest(call.exchange), response: describeResponse(call.exchange) },
  ]);
}

const refusalChecks: BindingCheck[] = CASES.map((c) => ({
  id: `signatures.${c.slug}`,
  rule: c.rule,
  area: 'signatures',
  title: c.title,
  scope: 'binding',
  needs: ['search'],
  run: (ctx, client) => judgeRefusal(ctx, client, c),
}));

const unsignedClaim: BindingCheck = {
  id: 'signatures.unsigned-claim-unverified',
  rule: 'R-SIG4',
  area: 'signatures',
  title: 'An unsigned request naming a keyed Platform profile is not served as that Platform',
  scope: 'binding',
  needs: ['search'],
  async run(ctx, client) {
    if (ctx.signer === undefined) return skip(NEEDS_KEY);
    const call = await servesUnsigned(client);
    if (call.outcome.kind === 'success') {
      return skip(
        'The Business serves unsigned requests; whether it charges and trusts them apart from the verified Platform is not visible from outside (R-SIG4 is observable only when it requires signatures).',
      );
    }
    return refusalCode(call) === 'signature_missing'
      ? pass('the unsigned claim was refused (signature_missing)')
      : fail(`the unsigned claim was answered with ${refusalCode(call) ?? `HTTP ${call.exchange.status ?? 'none'}`}`, [
          callEvidence(call, 'a refusal with signature_missing', refusalCode(call) ?? 'no UCP code'),
        ]);
  },
};

export const SIGNATURE_CHECKS: readonly Check[] = [keysWellFormed, ...refusalChecks, unsignedClaim, answersSigned];
