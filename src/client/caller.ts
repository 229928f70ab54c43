/**
 * What the client needs from a binding: send one Location operation with the Platform profile
 * attached (R-G1) and hand back the UCP payload, or throw a typed error. The payload is returned
 * unvalidated; the client validates it against the negotiated schema.
 */
export type Operation = 'search' | 'lookup';

export type BindingName = 'mcp' | 'rest';

export interface OperationCaller {
  readonly transport: BindingName;
  /** The endpoint URL from the business profile. */
  readonly endpoint: string;
  /** @param payload the bare domain request (`location` for MCP, the body for REST) */
  call(operation: Operation, payload: unknown): Promise<unknown>;
  close(): Promise<void>;
}

export interface CallerOptions {
  /** Per-call deadline, ms. */
  timeoutMs: number;
  userAgent: string;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
