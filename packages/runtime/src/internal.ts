/**
 * @mcp-bridge/runtime/internal — build-time helpers shared with `@mcp-bridge/vite-plugin` (the
 * schema checker, zod → JSON Schema, tool-name rules). Documented for tool builders of that
 * kind; an app never needs them, and they may change with the plugin.
 */
export { checkElicitationSchema, analyzeElicitationJsonSchema } from './schema/check-elicitation-schema.ts'
export type { ElicitationAnalysis } from './schema/check-elicitation-schema.ts'
export { analyzeContextSchema, analyzeResponseSchema, RESERVED_CONTEXT_KEYS } from './schema/analyze-elicit-schema.ts'
export type { ElicitSchemaAnalysis } from './schema/analyze-elicit-schema.ts'
export { isZod4Schema, isZodObject, NotZod4Error, toJsonSchema } from './schema/zod-to-json-schema.ts'
export type { JsonSchemaConversion, UnrepresentableNode } from './schema/zod-to-json-schema.ts'
export { ALLOWED_FORMATS } from './schema/elicitation-rules.ts'
export { formatViolation } from './schema/violation.ts'
export { MAX_TOOL_NAME_LENGTH, assertToolName, toolNameProblem } from './tool/tool-name.ts'
export { formatIssues, summarizeIssues } from './errors/issues.ts'
export { DEFAULT_CHAT_PATH, DEFAULT_MCP_PATH, routePaths, routePathSchema } from './http/route-paths.ts'
export { isAppServer } from './http/app-server.ts'
