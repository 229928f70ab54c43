/**
 * Small checks that narrow a value the compiler cannot see through — a string from outside that
 * should be one of a closed list, a parsed JSON value that should be an object, an element a loop
 * bound says is there — so callers prove the type instead of asserting it with `as`.
 */

/** `x` is one of `list`'s members: a string read from outside narrowed to the union the list spells. */
export function isOneOf<T>(list: readonly T[], x: unknown): x is T {
  return list.some((member) => member === x);
}

/** A JSON-style object: not null, not an array. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `list[index]`, for an index the caller's logic keeps in range. Where that logic is wrong this
 * throws naming the index, instead of letting an `undefined` typed as an element travel on.
 */
export function elementAt<T>(list: ArrayLike<T>, index: number): T {
  const value = list[index];
  if (value === undefined) throw new RangeError(`index ${index} is outside the list (length ${list.length})`);
  return value;
}

/**
 * The TCP port of a listening server's `address()`. A server listening on a pipe or not yet
 * listening has none, and saying so beats reading `.port` off a string or null.
 */
export function listeningPort(address: unknown): number {
  if (isRecord(address) && typeof address['port'] === 'number') return address['port'];
  throw new Error(`the server is not listening on a TCP port (its address is ${JSON.stringify(address)})`);
}
