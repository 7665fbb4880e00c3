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

export interface Diagnostic extends SourceLocation {
  severity: Severity
  code: DiagnosticCode
  message: string
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}  ${d.severity === 'warning' ? 'warning: ' : ''}${d.message}`
}

/** Sorted by file, then position, then message: output order never depends on discovery order. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.message.localeCompare(b.message),
  )
}
