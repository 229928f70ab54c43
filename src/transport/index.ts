/**
 * The transports' public face inside the package: what the composition root (server.ts) needs to
 * start the HTTP and stdio servers. Everything else under transport/ is internal to it (the
 * architecture test holds other layers to this file).
 */
export { attachUcpHttp, buildUcpApp, listenUcpHttp, normaliseBaseUrl } from './app.js';
export type { AttachedUcp, ListeningUcp, UcpAppParts } from './app.js';
export { isLoopbackHost } from './http.js';
export type { Hosting, Readiness } from './http.js';
export { RequestTurns } from './request-turns.js';
export { serveStdio } from './mcp/stdio.js';
export type { CallerGuidance } from './mcp/tools.js';
export type { LocationOperations, OperationEvent, OperationObserver, RequestValidators } from './operations.js';
export type { RequestLimiter } from './rate-limits.js';
export type { PlatformProfileSource } from './negotiate-request.js';
export { BudgetLimiter, UNLIMITED } from './rate-limits.js';
