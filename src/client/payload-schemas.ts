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
  type ExtensionSchemaRef,
  type PayloadValidator,
  type SchemaIssue,
} from '../protocol/schemas.js';
import type { DroppedCapability } from '../protocol/negotiation.js';
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

  /**
   * Composes and compiles validators for every active operation; fetches extension schemas. An
   * entity whose schema cannot be had (unreachable, not JSON, not compilable, missing the needed
   * definition) is dropped with a reason rather than failing discovery: an extension leaves its
   * operation without it, a root capability leaves its operation unavailable. Only when no
   * operation is left does this throw.
   */
  static async compose(decision: NegotiationDecision, version: string, options: PayloadSchemaOptions): Promise<ComposedSchemas> {
    const plans = (['search', 'lookup'] as const).flatMap((op) => {
      const plan = operationSchemas(decision, op);
      return plan === undefined ? [] : [{ op, plan }];
    });
    // A business may declare a root schema we do not pin (another document bound to ucp.dev): it is
    // fetched like an extension's (seed 002: the platform fetches and composes what is declared).
    const pinned = pinnedSchemaRegistry();
    const needsThirdParty = plans.some((p) => p.plan.extensions.length > 0 || !pinned.has(p.plan.root.schema));
    // What was fetched and how it went, so a drop can say what was tried.
    const tried = new Map<string, string>();
    const load = async (url: string): Promise<object> => {
      try {
        const document = await loadSchema(options.fetcher, url);
        tried.set(url, 'fetched');
        return document;
      } catch (error) {
        tried.set(url, `failed: ${reasonOf(error)}`);
        throw error;
      }
    };
    // Without them every validator comes from pinned documents: share the process-wide registry.
    const registry = needsThirdParty ? new SchemaRegistry({ loader: load }) : pinned;
    if (needsThirdParty) {
      for (const [url, doc] of Object.entries(options.preApprovedSchemas ?? {})) registry.addSchema(url, doc);
    }
    const validators = new Map<Operation, OperationValidators>();
    const dropped = new Map<string, { schema: string; error: unknown }>();
    // A URL's first failure is the informative one: retried at once, the fetcher only says it is backing off.
    const firstFailure = new Map<string, DiscoveryError>();
    const attempt = async <T>(work: () => Promise<T>): Promise<Attempt<T>> => {
      const outcome = await attemptSchemas(work);
      if (outcome.ok || !(outcome.error instanceof DiscoveryError) || outcome.error.url === undefined) return outcome;
      const first = firstFailure.get(outcome.error.url);
      if (first === undefined) firstFailure.set(outcome.error.url, outcome.error);
      return { ok: false, error: first ?? outcome.error };
    };
    for (const { op, plan } of plans) {
      const build = (extensions: readonly ExtensionSchemaRef[]): Promise<OperationValidators> =>
        composeOperation(registry, op, plan.root, extensions);
      const all = await attempt(() => build(plan.extensions));
      if (all.ok) {
        validators.set(op, all.value);
        continue;
      }
      // Something failed: find out which entity, so only that one is dropped.
      const root = await attempt(() => build([]));
      if (!root.ok) {
        dropped.set(plan.root.name, { schema: plan.root.schema, error: root.error });
        continue;
      }
      const usable: ExtensionSchemaRef[] = [];
      for (const extension of plan.extensions) {
        const alone = await attempt(() => build([extension]));
        if (alone.ok) usable.push(extension);
        else dropped.set(extension.name, { schema: extension.schemaUrl, error: alone.error });
      }
      const kept = await attempt(() => build(usable));
      if (kept.ok) validators.set(op, kept.value);
      else dropped.set(plan.root.name, { schema: plan.root.schema, error: kept.error });
    }
    if (validators.size === 0) {
      const first = [...dropped.values()][0]?.error;
      if (first instanceof DiscoveryError) throw first;
      const reasons = [...dropped].map(([name, d]) => `${name}: ${reasonOf(d.error)}`).join('; ');
      throw new DiscoveryError('schema_unavailable', 'schema', `Cannot build the negotiated schemas: ${reasons}`, { cause: first });
    }
    return {
      schemas: new PayloadSchemas(validators, registry.validator(ERROR_RESPONSE_SCHEMA_URL), version),
      dropped: [...dropped].map(([name, d]) => ({
        name,
        reason: 'schema_unavailable' as const,
        detail: `its schema ${d.schema} cannot be had, so it is treated as absent: ${reasonOf(d.error)} (${triedText(d.schema, tried)})`,
      })),
    };
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

export interface ComposedSchemas {
  schemas: PayloadSchemas;
  /** Active capabilities left out because their schema could not be had, with the reason. */
  dropped: DroppedCapability[];
}

async function composeOperation(
  registry: SchemaRegistry,
  op: Operation,
  root: { name: string; schema: string },
  extensions: readonly ExtensionSchemaRef[],
): Promise<OperationValidators> {
  const [request, response] = await Promise.all([
    registry.composeCapabilitySchema(root.name, root.schema, extensions, `${op}_request`),
    registry.composeCapabilitySchema(root.name, root.schema, extensions, `${op}_response`),
  ]);
  return { request, response };
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: UcpClientError | SchemaRegistryError };

/** Schema failures (the registry's, or a fetch failure it wraps) as a value; anything else rethrown. */
async function attemptSchemas<T>(work: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof SchemaRegistryError) {
      // The registry wraps what the loader threw; a fetch failure keeps its own precise error.
      return { ok: false, error: error.cause instanceof DiscoveryError ? error.cause : error };
    }
    if (error instanceof DiscoveryError) return { ok: false, error };
    throw error;
  }
}

/** What was tried for a dropped capability's schema: pinned, fetched (and how each fetch went). */
function triedText(schema: string, tried: ReadonlyMap<string, string>): string {
  const fetches = [...tried].map(([url, outcome]) => `GET ${url}: ${outcome}`);
  if (fetches.length > 0) return `tried: ${fetches.join('; ')}`;
  return pinnedSchemaRegistry().has(schema) ? 'tried: the pinned copy; nothing was fetched' : 'tried: nothing could be fetched';
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
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
