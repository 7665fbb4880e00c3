/**
 * @mcp-bridge/runtime/mcp — serve tools to any MCP client (2025-11-25 and 2026-07-28) on the
 * official SDK, over stdio or Streamable HTTP. Server-only.
 *
 * @module
 */
export { createMcpServer } from './mcp/create-mcp-server.ts'
export type { BridgeMcpServer } from './mcp/create-mcp-server.ts'
export type { McpLimits, McpServerOptions } from './mcp/server-options.ts'
export type { CallLimits } from './calls/call-limits.ts'
export type { McpHttpHandler, McpHttpOptions } from './mcp/http-handler.ts'
export type { McpAuth, McpAuthOptions } from './mcp/auth.ts'
export type { CallState, InputWait } from './mcp/call-state.ts'
export { MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION, viewUri } from './mcp/app-views.ts'
export type { McpAppsOptions, McpAppViewSource } from './mcp/app-views.ts'
export type { McpBridgeLogger, LogFields } from './telemetry/logger.ts'
