/**
 * Reading a response body that a stranger sends, with a byte cap: the stream is destroyed as soon
 * as the cap is passed, so an endless or oversized body costs at most `maxBytes` of memory.
 * Shared by the discovery fetcher and the client's REST caller, which word their errors differently.
 */

export interface CappedBodyErrors {
  /** More than `maxBytes` arrived; the stream is already destroyed. */
  tooLarge(): Error;
  /** The stream itself failed (reset, timeout, abort). */
  failed(error: unknown): Error;
}

/** All of `body`, at most `maxBytes` bytes; throws `errors.tooLarge()` beyond that. */
export async function readCappedBody(
  body: AsyncIterable<unknown> & { destroy(): unknown },
  maxBytes: number,
  errors: CappedBodyErrors,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  let overflow: Error | undefined;
  try {
    for await (const chunk of body) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > maxBytes) {
        body.destroy();
        // Thrown from inside the loop (not `break`), so the error destroying the stream raises is ignored.
        overflow = errors.tooLarge();
        throw overflow;
      }
      chunks.push(buffer);
    }
  } catch (error) {
    if (overflow !== undefined && error === overflow) throw error;
    throw errors.failed(error);
  }
  return Buffer.concat(chunks, size);
}
