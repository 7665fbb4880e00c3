/**
 * The one table of what discovery looks for. The quick pre-scan (is this file worth parsing?)
 * and the AST matcher both read it, so they cannot drift apart.
 */
export const RUNTIME_MODULE = '@mcp-bridge/runtime'

export const TOOL_FACTORY = 'createMcpTool'
export const PLUGIN_FACTORY = 'makePlugin'

/** Builder steps whose argument runs only on the server (stubbed in the client bundle). */
export const SERVER_STEPS = ['execute', 'handoff'] as const
/** Plugin steps whose argument runs only in the browser (stubbed in the server bundle). */
export const CLIENT_STEPS = ['onElicit'] as const

/** Files that cannot contain a tool or plugin are skipped without parsing. */
export function mayContainTools(code: string): boolean {
  return code.includes(RUNTIME_MODULE)
}
