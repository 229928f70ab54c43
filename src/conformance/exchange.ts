/**
 * One HTTP exchange with the Business under test, kept whole so any check can quote it as
 * evidence. Requests go through the Platform SDK's endpoint agent (client/endpoint-agent.ts):
 * endpoints come from a profile someone else published, so they are held to R-N4 (https, public
 * addresses only, connection pinned to the checked address) unless `--allow-loopback`.
 * Redirects are never followed: a 3xx is simply the answer.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { openEndpointAgent, type EndpointAgent, type EndpointAgentOptions } from '../client/index.js';
import { signForProbe, type RunSigner, type SigningProbe } from './request-signing.js';
import type { BindingName } from './types.js';
import { causeMessage } from '../errors.js';
import { errorCodeOf } from '../protocol/error-code.js';

/** Largest response body read, bytes; beyond it the exchange fails (a Location page is far smaller). */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** Characters of a body quoted in evidence. */
const EXCERPT_CHARS = 700;

export interface Exchange {
  binding: BindingName;
  /** Short label: `tools/call search_locations`, `POST /locations/lookup`, `raw body`. */
  label: string;
  method: 'GET' | 'POST';
  url: string;
  requestHeaders: Readonly<Record<string, string>>;
  requestBody: string;
  /** Absent when no answer arrived (see `failure`). */
  status?: number;
  headers?: Readonly<Record<string, string | string[] | undefined>>;
  responseText?: string;
  /** Why no usable answer arrived: connection refused, timeout, body too large. */
  failure?: string;
}

export function excerpt(text: string, max = EXCERPT_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}… (${flat.length} chars)` : flat;
}

/** `POST https://…/ucp/mcp [tools/call search_locations] {…}` for evidence. */
export function describeRequest(x: Exchange): string {
  const body = x.requestBody === '' ? '' : ` ${excerpt(x.requestBody)}`;
  return `${x.method} ${x.url} [${x.label}]${body}`;
}

/** `HTTP 200 {…}` or `no answer: …` for evidence. */
export function describeResponse(x: Exchange): string {
  if (x.status === undefined) return `no answer: ${x.failure ?? 'unknown failure'}`;
  const body = x.responseText === undefined || x.responseText === '' ? '(empty body)' : excerpt(x.responseText);
  return `HTTP ${x.status} ${body}`;
}

export function headerValue(headers: Exchange['headers'], name: string): string | undefined {
  const v = headers?.[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * What a peer needs of the run's pacing (pacing.ts's Pacer): send one call, spaced and retried
 * as the Business's rate limit asks. Declared here so this module does not import pacing.ts,
 * which reads exchanges.
 */
export interface CallPacer {
  send(attempt: () => Promise<Exchange>, cost?: number): Promise<Exchange>;
}

export interface RequestSpec {
  binding: BindingName;
  label: string;
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** How many calls the Business charges for it (a JSON-RPC batch: one per element); 1 when absent. */
  cost?: number;
  /** With the run's key: one of the requests a signing Business must refuse, instead of a correctly signed one. */
  signing?: SigningProbe;
}

/** Sends requests to one Business origin through a guarded, pinned agent. */
export class HttpPeer {
  private constructor(
    private readonly agent: EndpointAgent,
    private readonly timeoutMs: number,
    private readonly pacer: CallPacer | undefined,
    private readonly signer: RunSigner | undefined,
  ) {}

  /** Whether requests are signed (the run has a key). */
  get signs(): boolean {
    return this.signer !== undefined;
  }

  /**
   * Resolves and checks the endpoint host once (R-N4); throws a `UcpClientError` saying why it is
   * refused. With a `pacer`, sends are spaced and rate-limit refusals waited out (pacing.ts).
   */
  static async open(
    endpoint: string,
    timeoutMs: number,
    options: EndpointAgentOptions,
    pacer?: CallPacer,
    signer?: RunSigner,
  ): Promise<HttpPeer> {
    return new HttpPeer(await openEndpointAgent(endpoint, { connectTimeoutMs: timeoutMs, ...options }), timeoutMs, pacer, signer);
  }

  send(spec: RequestSpec): Promise<Exchange> {
    // One Request-Id for every attempt: a resend after a 429 is the same request.
    const unsigned = { 'request-id': randomUUID(), 'user-agent': 'ucp-location conformance', ...spec.headers };
    const signer = this.signer;
    const once = (): Promise<Exchange> => {
      if (signer === undefined) return this.#sendOnce(spec, unsigned);
      // Signed per attempt: what is sent is exactly what was signed.
      const signed = signForProbe(
        { binding: spec.binding, method: spec.method, url: spec.url, headers: unsigned, body: spec.body },
        signer,
        spec.signing,
      );
      return this.#sendOnce({ ...spec, ...(signed.body === undefined ? {} : { body: signed.body }) }, signed.headers);
    };
    return this.pacer === undefined ? once() : this.pacer.send(once, spec.cost);
  }

  async #sendOnce(spec: RequestSpec, headers: Record<string, string>): Promise<Exchange> {
    const base: Exchange = {
      binding: spec.binding,
      label: spec.label,
      method: spec.method,
      url: spec.url,
      requestHeaders: headers,
      requestBody: spec.body ?? '',
    };
    const deadline = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await request(spec.url, {
        method: spec.method,
        dispatcher: this.agent.dispatcher,
        headers,
        ...(spec.body === undefined ? {} : { body: spec.body }),
        signal: deadline,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        const buffer = chunk as Buffer;
        size += buffer.length;
        if (size > MAX_RESPONSE_BYTES) {
          response.body.destroy();
          return { ...base, failure: `the response exceeded ${MAX_RESPONSE_BYTES} bytes` };
        }
        chunks.push(buffer);
      }
      return {
        ...base,
        status: response.statusCode,
        headers: response.headers,
        responseText: Buffer.concat(chunks, size).toString('utf8'),
      };
    } catch (error) {
      const why = deadline.aborted ? `no answer within ${this.timeoutMs} ms` : `${errorCodeOf(error) || 'error'}: ${causeMessage(error)}`;
      return { ...base, failure: why };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
