/**
 * REST binding of the client (draft rest.openapi.json): `POST <endpoint>/locations/search|lookup`
 * with the bare request as the body, `UCP-Agent: profile="…"` (an RFC 8941 dictionary, serialised
 * by a real Structured Fields serialiser) and a fresh `Request-Id` on every call (R-G1).
 *
 * 200 → the UCP payload. Any other status → a typed error built from the UCP `error_response`
 * body the Business sends; 3xx is refused, never followed.
 */
import { randomUUID } from 'node:crypto';
import { serializeDictionary } from 'structured-headers';
import { request } from 'undici';
import { readCappedBody } from '../protocol/capped-body.js';
import { businessFailure, describeBusinessError } from './business-errors.js';
import { isRecord, type CallerOptions, type Operation, type OperationCaller } from './caller.js';
import type { EndpointAgent } from './endpoint-agent.js';
import type { MessageSignatures } from './message-signatures.js';
import { DiscoveryError, ResponseValidationError } from './errors.js';
import { errorCodeOf } from '../protocol/error-code.js';
import { causeMessage } from '../errors.js';

/** Largest response body read, bytes: a page of Locations is far below this. */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export class RestCaller implements OperationCaller {
  readonly transport = 'rest' as const;
  readonly endpoint: string;
  readonly #agent: EndpointAgent;
  readonly #agentHeader: string;
  readonly #options: CallerOptions;
  readonly #signatures: MessageSignatures;

  constructor(agent: EndpointAgent, profileUrl: string, options: CallerOptions, signatures: MessageSignatures) {
    this.#agent = agent;
    // WHATWG serialisation: no trailing slash is added to a path, and OpenAPI paths append to it.
    this.endpoint = agent.url.href.replace(/\/+$/, '');
    this.#agentHeader = serializeDictionary({ profile: profileUrl });
    this.#options = options;
    this.#signatures = signatures;
  }

  async call(operation: Operation, payload: unknown): Promise<unknown> {
    const url = `${this.endpoint}/locations/${operation}`;
    const requestId = randomUUID();
    // The exact bytes sent: the digest and the signature cover these, never a re-serialisation.
    const bytes = Buffer.from(JSON.stringify(payload), 'utf8');
    const sent: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      'ucp-agent': this.#agentHeader,
      'request-id': requestId,
      'user-agent': this.#options.userAgent,
    };
    const signed = this.#signatures.signatureHeaders({ url: new URL(url), method: 'POST', headers: sent, body: bytes });
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, {
        method: 'POST',
        dispatcher: this.#agent.dispatcher,
        headers: { ...sent, ...signed },
        body: bytes,
        headersTimeout: this.#options.timeoutMs,
        bodyTimeout: this.#options.timeoutMs,
      });
    } catch (error) {
      const code = errorCodeOf(error);
      throw new DiscoveryError(
        'unreachable',
        'endpoint',
        `Cannot reach the REST endpoint ${url}: ${causeMessage(error)}${code ? ` (${code})` : ''}`,
        {
          cause: error,
          url,
        },
      );
    }
    const { statusCode: status, headers, body } = response;
    body.on('error', () => undefined);
    if (status >= 300 && status < 400) {
      body.destroy();
      const location = headers['location'];
      throw new DiscoveryError(
        'redirect_refused',
        'endpoint',
        `The REST endpoint ${url} answered HTTP ${status} (a redirect to ${typeof location === 'string' ? location : 'nowhere'}); endpoints must not redirect and redirects are never followed.`,
        { url },
      );
    }
    const received = await readBytes(body, url);
    // Nothing of an answer is used before its signature is checked (R-SIG3).
    this.#signatures.verifyAnswer({ status, headers }, received, `${operation} over REST`);
    const text = received.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      if (status !== 200) throw this.#failure(status, undefined, headers, operation, requestId);
      throw new ResponseValidationError(
        `The REST endpoint ${url} answered 200 with a body that is not JSON (${causeMessage(error)}).`,
        operation,
        [{ pointer: '', message: 'not JSON' }],
      );
    }
    if (status === 200) return json;
    throw this.#failure(status, json, headers, operation, requestId);
  }

  #failure(
    status: number,
    body: unknown,
    headers: Record<string, string | string[] | undefined>,
    operation: Operation,
    requestId: string,
  ): Error {
    const messages = isRecord(body) && Array.isArray(body['messages']) ? (body['messages'] as unknown[]) : [];
    const first = messages.find(isRecord);
    const ucpCode = first !== undefined && typeof first['code'] === 'string' ? first['code'] : undefined;
    const content = first !== undefined && typeof first['content'] === 'string' ? first['content'] : undefined;
    const path = first !== undefined && typeof first['path'] === 'string' ? first['path'] : undefined;
    const retryHeader = headers['retry-after'];
    const retry = typeof retryHeader === 'string' && /^\d+$/.test(retryHeader) ? Number(retryHeader) : undefined;
    return businessFailure(describeBusinessError('rest', `HTTP ${status} to ${operation} (Request-Id ${requestId})`, content, ucpCode), {
      transport: 'rest',
      httpStatus: status,
      messages,
      ...(body !== undefined ? { data: body } : {}),
      ...(ucpCode !== undefined ? { ucpCode } : {}),
      ...(path !== undefined ? { pointer: path } : {}),
      ...(retry !== undefined ? { retryAfterSeconds: retry } : {}),
    });
  }

  async close(): Promise<void> {
    // The agent is owned by the client, which closes it.
  }
}

async function readBytes(body: AsyncIterable<unknown> & { destroy(): unknown }, url: string): Promise<Buffer> {
  return readCappedBody(body, MAX_RESPONSE_BYTES, {
    tooLarge: () =>
      new DiscoveryError(
        'unreachable',
        'endpoint',
        `The REST endpoint ${url} sent more than ${MAX_RESPONSE_BYTES} bytes; the response was abandoned.`,
        { url },
      ),
    failed: (error) =>
      new DiscoveryError('unreachable', 'endpoint', `Reading the response of ${url} failed: ${causeMessage(error)}`, {
        cause: error,
        url,
      }),
  });
}
