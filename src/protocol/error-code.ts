/**
 * The `code` a Node.js or undici error carries (`ECONNREFUSED`, `UND_ERR_HEADERS_TIMEOUT`, …), or ''
 * when there is none: error values arrive as `unknown`, and a non-string `code` must not print as
 * "[object Object]" in a message.
 */
export function errorCodeOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const code: unknown = 'code' in error ? error.code : undefined;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : '';
}
