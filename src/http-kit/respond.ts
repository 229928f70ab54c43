/** Writing a JSON answer, the one way every server of the package does it. */
import type { ServerResponse } from 'node:http';

/**
 * Sends `payload` as JSON with its length; `headers` are set after the defaults, so a server may
 * name a charset or add cache rules.
 */
export function writeJson(res: ServerResponse, status: number, payload: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const text = JSON.stringify(payload);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(text);
}
