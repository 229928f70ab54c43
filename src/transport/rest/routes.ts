/**
 * REST binding: `POST <base>/ucp/locations/search` and `POST <base>/ucp/locations/lookup`
 * (draft rest.openapi.json). The body is the bare request (no `location` wrapper), the Platform
 * profile comes from the `UCP-Agent` header, and the answer is exactly the payload the MCP tool
 * returns in `structuredContent` (both call `executeOperation`).
 */
import { performance } from 'node:perf_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../logging.js';
import { summarizeRequest } from '../../logging.js';
import { closeAfterAnswer, readJsonBody } from '../../http-kit/body.js';
import { writeJson } from '../../http-kit/respond.js';
import { elapsedMs } from '../timing.js';
import { executeOperation, validateRequest, warningCodes } from '../operations.js';
import { exampleProfileUrl, withContinueUrl, withTrustHint } from '../profile-trust.js';
import type { Operation, OperationDeps } from '../operations.js';
import { restError, toRestError } from './errors.js';
import type { MappedRestError } from './errors.js';
import { parseUcpAgent } from './ucp-agent.js';
import { signedRequestOf } from '../request-signatures.js';

export interface RestContext {
  requestId: string;
  clientIp: string | undefined;
}

export class RestEndpoint {
  constructor(
    private readonly operations: OperationDeps,
    private readonly logger: Logger,
    private readonly options: { maxBodyBytes: number },
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse, operation: Operation, ctx: RestContext): Promise<void> {
    const started = performance.now();
    const log = this.logger.child({ requestId: ctx.requestId, operation, binding: 'rest' });
    let summary: Record<string, unknown> = {};
    try {
      const body = await readJsonBody(req, this.options.maxBodyBytes);
      if (!body.ok) {
        if (body.status === 413) closeAfterAnswer(res);
        this.fail(res, log, operation, started, summary, restError(body.status, body.reason, body.message, 'recoverable'));
        return;
      }
      if (body.value === null || typeof body.value !== 'object' || Array.isArray(body.value)) {
        const hint = operation === 'search' ? '{} browses' : '{"ids": [...]}';
        this.fail(
          res,
          log,
          operation,
          started,
          summary,
          restError(400, 'invalid_request', `The body must be a JSON object holding the ${operation} request (${hint}).`, 'recoverable'),
        );
        return;
      }
      summary = summarizeRequest(body.value);
      // Before anything else about the request: in `required` mode an unsigned call learns that first.
      const caller = await this.operations.verifier?.identify(signedRequestOf(req, body.raw), undefined, ctx.clientIp);
      const profileUrl = parseUcpAgent(req.headers['ucp-agent'], exampleProfileUrl(this.operations.announcedProfileUrls ?? []));
      const request = validateRequest(this.operations, operation, body.value);
      const acceptLanguage = req.headers['accept-language'];
      const result = await executeOperation(this.operations, {
        operation,
        profileUrl,
        request,
        clientIp: ctx.clientIp,
        ...(caller === undefined ? {} : { caller }),
        ...(acceptLanguage === undefined ? {} : { presentation: { acceptLanguage } }),
      });
      // R-C3: the languages the answer's strings are in (RFC 9110 §8.5 lists them comma-separated);
      // the answer depends on Accept-Language, which Vary says to any cache on the way.
      if (result.outcome === 'success' && result.contentLanguage !== undefined && result.contentLanguage.length > 0) {
        res.setHeader('Content-Language', result.contentLanguage.join(', '));
      }
      const vary = res.getHeader('Vary');
      res.setHeader('Vary', vary === undefined ? 'Accept-Language' : `${String(vary)}, Accept-Language`);
      writeJson(res, 200, result.payload);
      this.operations.observe?.({
        binding: 'rest',
        operation,
        outcome: result.outcome,
        warnings: warningCodes(result.payload),
        durationMs: elapsedMs(started),
      });
      log.info(
        { durationMs: elapsedMs(started), status: 200, outcome: result.outcome, results: result.resultCount, request: summary },
        'rest',
      );
    } catch (err) {
      // Discovery failures say which profile URLs work here and how the operator adds one.
      const mapped = toRestError(
        withContinueUrl(withTrustHint(err, this.operations.announcedProfileUrls ?? []), this.operations.continueUrl),
        ctx.requestId,
      );
      this.fail(res, log, operation, started, summary, mapped, err);
    }
  }

  private fail(
    res: ServerResponse,
    log: Logger,
    operation: Operation,
    started: number,
    summary: Record<string, unknown>,
    mapped: MappedRestError,
    err?: unknown,
  ): void {
    if (mapped.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(mapped.retryAfterSeconds));
    if (!res.headersSent) writeJson(res, mapped.status, mapped.body);
    this.operations.observe?.({
      binding: 'rest',
      operation,
      outcome: 'error',
      code: mapped.body.messages[0].code ?? 'error',
      warnings: [],
      durationMs: elapsedMs(started),
    });
    const fields = { durationMs: elapsedMs(started), status: mapped.status, code: mapped.body.messages[0].code, request: summary };
    if (mapped.unexpected) log.error({ ...fields, err }, 'rest failed');
    else log.info({ ...fields, reason: mapped.body.messages[0].content }, 'rest refused');
  }
}

/** Kept here for the modules of the binding that write JSON; it is the HTTP kit's. */
export { writeJson };
