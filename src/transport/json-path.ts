/**
 * RFC 6901 JSON pointer → RFC 9535 normalized JSONPath, for the `path` of UCP messages
 * (message_*.json: "RFC 9535 JSONPath"). Validation errors carry pointers; REST messages want paths.
 *
 * A segment of digits is read as an array index: pointers come from validating a request, where
 * every numeric segment we produce indexes an array (`/ids/3`), and object keys in UCP requests are
 * names, never bare numbers.
 */
export function pointerToJsonPath(pointer: string): string {
  if (pointer === '') return '$';
  const segments = pointer
    .slice(pointer.startsWith('/') ? 1 : 0)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return `$${segments.map((s) => (/^(0|[1-9][0-9]*)$/.test(s) ? `[${s}]` : `['${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`)).join('')}`;
}
