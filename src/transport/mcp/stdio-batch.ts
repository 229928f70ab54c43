/**
 * JSON-RPC 2.0 batches over stdio (R-J1). The SDK's stdio transport reads one message per line and
 * refuses an array; so a batch line is split here into its messages, each handed to the SDK as a
 * line of its own, and the responses to its requests are held back and written together as one
 * array line once the last of them is in — in the batch's order, with the same per-element
 * refusals (shape, past the limit) as over HTTP (jsonrpc.ts `planBatch`).
 *
 * A response is matched to its batch by request id. JSON-RPC asks clients not to reuse an id
 * while its request is pending, so the first pending batch holding an id takes its response.
 */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { idOf, isRequest, planBatch, rpcError } from './jsonrpc.js';

interface PendingBatch {
  /** One slot per answer, in batch order; undefined until the response arrives. */
  slots: unknown[];
  /** Slot index of each request still awaiting its response, by id (JSON text). */
  awaiting: Map<string, number>;
}

export class StdioBatches {
  readonly #pending: PendingBatch[] = [];

  /** @param write sends one line (an array of responses, or one refusal) to the client. */
  constructor(private readonly write: (line: unknown) => void) {}

  /**
   * Takes a batch line's array; returns the messages to hand to the SDK one by one. Refusals and,
   * when nothing awaits a response, the whole answer are written at once.
   */
  open(batch: readonly unknown[]): unknown[] {
    if (batch.length === 0) {
      this.write(rpcError(null, ErrorCode.InvalidRequest, 'Invalid Request: an empty batch is not a JSON-RPC request.'));
      return [];
    }
    const pending: PendingBatch = { slots: [], awaiting: new Map() };
    const forward: unknown[] = [];
    for (const step of planBatch(batch)) {
      if (step.kind === 'refused') {
        pending.slots.push(step.answer);
        continue;
      }
      forward.push(step.message);
      if (!isRequest(step.message)) continue; // notifications and responses get no answer
      const key = JSON.stringify(idOf(step.message));
      if (pending.awaiting.has(key)) continue; // a repeated id: the one response answers the first
      pending.awaiting.set(key, pending.slots.length);
      pending.slots.push(undefined);
    }
    if (pending.awaiting.size === 0) {
      if (pending.slots.length > 0) this.write(pending.slots);
    } else {
      this.#pending.push(pending);
    }
    return forward;
  }

  /** True when `message` answers a batched request (it is then held, not sent on its own). */
  capture(message: unknown): boolean {
    if (typeof message !== 'object' || message === null || 'method' in message || !('id' in message)) return false;
    const key = JSON.stringify(idOf(message));
    const index = this.#pending.findIndex((b) => b.awaiting.has(key));
    const batch = this.#pending[index];
    if (batch === undefined) return false;
    const slot = batch.awaiting.get(key) ?? 0;
    batch.awaiting.delete(key);
    batch.slots[slot] = message;
    if (batch.awaiting.size === 0) {
      this.#pending.splice(index, 1);
      this.write(batch.slots);
    }
    return true;
  }
}
