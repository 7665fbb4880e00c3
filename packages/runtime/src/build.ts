/**
 * @mcp-bridge/runtime/build — the one build-only entry, for `@mcp-bridge/vite-plugin`: the error
 * base class, app-server detection, the route path rule, the tool-name rule, how a schema
 * violation reads, and which hosts are this machine (the dev panel's rule). It is zod-free on purpose: the plugin loads it on every build, so a build whose
 * tools did not change loads no schema library, and a build whose tools did learns its registries
 * (discovery) before zod is loaded. Schemas are checked where tools are defined
 * (`createMcpTool(...).elicits()`), so the plugin needs no schema code of its own. An app never
 * needs this entry.
 *
 * @module
 */
export { McpBridgeError } from './errors/mcp-bridge-error.ts'
export { OptionsError } from './errors/options-error.ts'
export { isAppServer } from './http/app-server.ts'
export { isLoopbackHost } from './http/loopback-host.ts'
export { DEFAULT_CHAT_PATH, DEFAULT_MCP_PATH, ROUTE_PATH_HINT, ROUTE_PATH_PATTERN, routePaths } from './http/route-path-rule.ts'
export { toolNameProblem } from './tool/tool-name.ts'
export { formatViolation } from './errors/violation.ts'
