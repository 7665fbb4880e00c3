/**
 * What the plugin and the CLI report. One shape for both, so their output is identical:
 * `file:line:col  message`, with a stable `code` for machines (`--json`).
 */
export type Severity = 'error' | 'warning'

export interface SourceLocation {
  /** Path relative to the project root, with forward slashes. */
  file: string
  /** 1-based. */
  line: number
  /** 1-based. */
  column: number
}

export type DiagnosticCode =
  | 'NON_LITERAL_NAME'
  | 'INVALID_TOOL_NAME'
  | 'NOT_EXPORTED'
  | 'DUPLICATE_TOOL_NAME'
  | 'DUPLICATE_PROMPT_NAME'
  | 'DUPLICATE_RESOURCE_URI'
  | 'WRAPPED_CALL'
  | 'RE_EXPORT'
  | 'MISSING_ELICITS'
  | 'PLUGIN_UNKNOWN_TOOL'
  | 'DUPLICATE_PLUGIN'
  | 'PLUGIN_HANDLERS'
  | 'PLUGIN_HANDLER_TYPE'
  | 'ELICIT_CONTEXT_TYPE'
  | 'SCHEMA'
  | 'MODULE_LOAD_FAILED'
  | 'STALE_OUTPUT'
  | 'TYPES_UNAVAILABLE'

/**
 * A problem the plugin or the CLI found: a stable code, its severity, where (`file:line:col`) and what to do.
 */
export interface Diagnostic extends SourceLocation {
  severity: Severity
  code: DiagnosticCode
  message: string
}

/**
 * A diagnostic as the plugin and the CLI print it: `file:line:col  message` (`warning:` before a warning).
 *
 * @example
 * ```ts
 * import { formatDiagnostic } from '@mcp-bridge/vite-plugin'
 * import type { GenerateResult } from '@mcp-bridge/vite-plugin/core'
 *
 * declare const result: GenerateResult
 * for (const diagnostic of result.diagnostics) console.error(formatDiagnostic(diagnostic))
 * ```
 */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}  ${d.severity === 'warning' ? 'warning: ' : ''}${d.message}`
}

/**
 * Sorted by file, then position, then message: output order never depends on discovery order.
 *
 * @example
 * ```ts
 * import { formatDiagnostic, type Diagnostic } from '@mcp-bridge/vite-plugin'
 * import { sortDiagnostics } from '@mcp-bridge/vite-plugin/core'
 *
 * declare const found: Diagnostic[]
 * console.log(sortDiagnostics(found).map(formatDiagnostic).join('\n')) // the same order on every run
 * ```
 */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.message.localeCompare(b.message))
}
