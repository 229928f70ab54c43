/**
 * Validators of the negotiated payloads: for each active operation, the root capability's
 * request/response shape composed (allOf) with every active extension of it (overview "Schema
 * Composition"), compiled by the shared SchemaRegistry. Pinned `dev.ucp.*` documents need no
 * network; third-party extension schemas are fetched through the SafeFetcher, and only for
 * entities that passed authority binding (negotiate.ts hands in nothing else).
 *
 * An `error_response` body (`ucp.status: "error"`, e.g. `capabilities_incompatible`, R-G5) is
 * validated against its own schema and turned into a typed error.
 */
import {
  ERROR_RESPONSE_SCHEMA_URL,
  SchemaRegistry,
  SchemaRegistryError,
  pinnedSchemaRegistry,
  summarizeIssues,
  type PayloadValidator,
  type SchemaIssue,
} from '../protocol/schemas.js';
import { SafeFetchError, type SafeFetcher } from '../protocol/safe-fetch.js';
import { isRecord, type BindingName, type Operation } from './caller.js';
import {
  BusinessError,
  CapabilitiesIncompatibleError,
  DiscoveryError,
  RequestValidationError,
  ResponseValidationError,
  type UcpClientError,
} from './errors.js';
import { fromSafeFetchError } from './fetch-errors.js';
import { OPERATION_CAPABILITY, operationSchemas, type NegotiationDecision } from './negotiate.js';

interface OperationValidators {
  request: PayloadValidator;
  response: PayloadValidator;
}

export interface PayloadSchemaOptions {
  fetcher: SafeFetcher;
  /** Schema documents trusted out of band (URL → document): never fetched. */
  preApprovedSchemas?: Readonly<Record<string, object>>;
}

export class PayloadSchemas {
  private constructor(
    private readonly validators: ReadonlyMap<Operation, OperationValidators>,
    private readonly errorResponse: PayloadValidator,
    private readonly version: string,
  ) {}

  /** Composes and compiles validators for every active operation; fetches extension schemas. */
  static async compose(decision: NegotiationDecision, version: string, options: PayloadSchemaOptions): Promise<PayloadSchemas> {
    const plans = (['search', 'lookup'] as const).flatMap((op) => {
      const plan = operationSchemas(decision, op);
      return plan === undefined ? [] : [{ op, plan }];
    });
    const needsThirdParty = plans.some((p) => p.plan.extensions.length > 0);
    // Without extensions every validator comes from pinned documents: share the process-wide registry.
    const registry = needsThirdParty ? new SchemaRegistry({ loader: (url) => loadSchema(options.fetcher, url) }) : pinnedSchemaRegistry();
    if (needsThirdParty) {
      for (const [url, doc] of Object.entries(options.preApprovedSchemas ?? {})) registry.addSchema(url, doc);
    }
    const validators = new Map<Operation, OperationValidators>();
    try {
      for (const { op, plan } of plans) {
        const [request, response] = await Promise.all([
          registry.composeCapabilitySchema(plan.root.name, plan.root.schema, plan.extensions, `${op}_request`),
          registry.composeCapabilitySchema(plan.root.name, plan.root.schema, plan.extensions, `${op}_response`),
        ]);
        validators.set(op, { request, response });
      }
    } catch (error) {
      if (error instanceof SchemaRegistryError) {
        // The registry wraps what the loader threw; a fetch failure keeps its own precise error.
        if (error.cause instanceof DiscoveryError) throw error.cause;
        throw new DiscoveryError('schema_unavailable', 'schema', `Cannot build the negotiated schemas: ${error.message}`, { cause: error });
      }
      throw error;
    }
    return new PayloadSchemas(validators, registry.validator(ERROR_RESPONSE_SCHEMA_URL), version);
  }

  /** Throws RequestValidationError when `payload` is not a valid request of `op`. */
  checkRequest(op: Operation, payload: unknown): void {
    const result = this.for(op).request(payload);
    if (!result.valid) {
      throw new RequestValidationError(`The ${op} request is invalid: ${summarizeIssues(result.errors)}`, op, result.errors);
    }
  }

  /**
   * Passes when `payload` is a valid `op` response of the negotiated version; throws
   * ResponseValidationError (with the JSON pointer), or the typed error an error_response carries.
   */
  checkResponse(op: Operation, payload: unknown, transport: BindingName): void {
    const ucp = isRecord(payload) ? payload['ucp'] : undefined;
    if (isRecord(ucp) && ucp['status'] === 'error') throw this.errorOutcome(op, payload, transport);
    const result = this.for(op).response(payload);
    if (!result.valid) {
      throw new ResponseValidationError(
        `The business's ${op} response does not conform to the negotiated schema: ${summarizeIssues(result.errors)}`,
        op,
        result.errors,
      );
    }
    const issues: SchemaIssue[] = [];
    if (isRecord(ucp) && ucp['version'] !== this.version) {
      issues.push({
        pointer: '/ucp/version',
        message: `must be the negotiated version ${this.version} (got ${JSON.stringify(ucp['version'])})`,
      });
    }
    const capabilities = isRecord(ucp) ? ucp['capabilities'] : undefined;
    const root = OPERATION_CAPABILITY[op];
    if (isRecord(capabilities) && !Object.hasOwn(capabilities, root)) {
      issues.push({ pointer: '/ucp/capabilities', message: `must list ${root}, the capability of this operation (R-G6)` });
    }
    if (issues.length > 0) {
      throw new ResponseValidationError(
        `The business's ${op} response does not conform to the negotiation: ${summarizeIssues(issues)}`,
        op,
        issues,
      );
    }
  }

  private errorOutcome(op: Operation, payload: unknown, transport: BindingName): UcpClientError {
    const result = this.errorResponse(payload);
    if (!result.valid) {
      return new ResponseValidationError(
        `The business answered ${op} with an error_response that does not conform to its schema: ${summarizeIssues(result.errors)}`,
        op,
        result.errors,
      );
    }
    const body = payload as { messages: Record<string, unknown>[]; continue_url?: string };
    const first = body.messages[0];
    const code = typeof first?.['code'] === 'string' ? first['code'] : undefined;
    const content = typeof first?.['content'] === 'string' ? first['content'] : 'no explanation given';
    const continueOpt = body.continue_url === undefined ? {} : { continueUrl: body.continue_url };
    if (code === 'capabilities_incompatible') {
      return new CapabilitiesIncompatibleError(`The business reports capabilities_incompatible for ${op}: ${content}`, [], {
        ...continueOpt,
        messages: body.messages,
      });
    }
    return new BusinessError(`The business answered ${op} with an error${code === undefined ? '' : ` [${code}]`}: ${content}`, {
      transport,
      ...(code !== undefined ? { ucpCode: code } : {}),
      messages: body.messages,
      data: payload,
    });
  }

  private for(op: Operation): OperationValidators {
    const v = this.validators.get(op);
    // Callers check availability first (operationUnavailable); reaching here is a programming error.
    if (v === undefined) throw new Error(`No negotiated schema for ${op}`);
    return v;
  }
}

async function loadSchema(fetcher: SafeFetcher, url: string): Promise<object> {
  try {
    const body = (await fetcher.get(url)).body;
    if (!isRecord(body)) throw new DiscoveryError('schema_unavailable', 'schema', `The schema at ${url} is not a JSON object`, { url });
    return body;
  } catch (error) {
    if (error instanceof SafeFetchError) throw fromSafeFetchError(error, 'schema', url);
    throw error;
  }
}
