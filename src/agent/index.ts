/**
 * The agent bridge (`ucp-location agent`): an MCP server through which any LLM host finds
 * Locations across UCP businesses, acting as a UCP Platform through the SDK in client/.
 * Node-only; not part of the package's public exports.
 */
export { AGENT_TOKEN_ENV, AgentBridge, checkAgentAccess, serveAgentHttp, serveAgentStdio, isLoopback, MCP_HTTP_PATH } from './server.js';
export type { AgentHttpServer, AgentOptions, StdioSession } from './server.js';
export {
  DEFAULT_MAX_MATCHES,
  DEFAULT_TIMEOUT_MS,
  deriveName,
  loadAgentConfigFile,
  parseAgentConfig,
  parseBusinessFlag,
  resolveSettings,
} from './config.js';
export type { AgentBusiness, AgentConfigFile, AgentSettings, TransportChoice } from './config.js';
export { TOOLS, TOOL_NAMES } from './tools.js';
