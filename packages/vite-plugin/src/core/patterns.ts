/**
 * The one table of what discovery looks for. The quick pre-scan (is this file worth parsing?)
 * and the AST matcher both read it, so they cannot drift apart.
 */
export const RUNTIME_MODULE = '@mcp-bridge/runtime'

export const TOOL_FACTORY = 'createMcpTool'
export const PLUGIN_FACTORY = 'createPlugin'
/** Prompts and resources: discovered into the server registry and the manifest, not split. */
export const PROMPT_FACTORY = 'createMcpPrompt'
export const RESOURCE_FACTORY = 'createMcpResource'

/** Builder steps whose argument runs only on the server (stubbed in the client bundle). */
export const SERVER_STEPS = ['execute', 'handoff'] as const
/** Plugin steps whose argument runs only in the browser (stubbed in the server bundle). */
export const CLIENT_STEPS = ['onElicit'] as const

/** Files that cannot contain a tool or plugin are skipped without parsing. */
export function mayContainTools(code: string): boolean {
  return code.includes(RUNTIME_MODULE)
}

/**
 * Whether `code` can hold a chain step the split cuts (`SERVER_STEPS` for the client bundle,
 * `CLIENT_STEPS` for the server's), from its text: a file that never spells the step's name has
 * nothing to cut and is not parsed. An escaped identifier (`\u0065xecute`) spells it only once
 * parsed, so any `\u` in the file counts as maybe.
 */
export function mayHaveSteps(code: string, steps: readonly string[]): boolean {
  return code.includes('\\u') || steps.some((step) => code.includes(step))
}
