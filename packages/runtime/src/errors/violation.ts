/**
 * A rule broken by an elicitation schema. The runtime throws on errors at `createMcpTool` time;
 * the Vite plugin and the CLI map the same records to `file:line:col`, so every field a
 * reporter needs (which key, which property, which rule) is carried here, not parsed from text.
 */
export type ViolationSeverity = 'error' | 'warning'

/**
 * The rules of MCP form-mode elicitation schemas that `createMcpTool(...).elicits()` and `mcp-bridge check` enforce; each is listed with its fix in the docs' troubleshooting page.
 */
export type ViolationRule =
  | 'not-zod-4'
  | 'not-object'
  | 'nested-object'
  | 'array-not-enum'
  | 'tuple'
  | 'record'
  | 'union'
  | 'nullable'
  | 'no-type'
  | 'unrepresentable'
  | 'transform'
  | 'enum-not-string'
  | 'invalid-enum'
  | 'invalid-default'
  | 'invalid-required'
  | 'recursive'
  | 'too-complex'
  | 'reserved-context-key'
  | 'unknown-keyword'
  | 'unsupported-format'
  | 'pattern'
  | 'plain-form-unanswerable'

/**
 * One rule an elicitation schema breaks: its severity, the rule, where (a JSON pointer and the property) and what to write instead.
 */
export interface Violation {
  severity: ViolationSeverity
  rule: ViolationRule
  /** JSON pointer into the converted schema, e.g. `/properties/tags/items`. */
  pointer: string
  /** The top-level property the violation belongs to, if any (used for source locations). */
  property?: string
  /** What is wrong and what to write instead; does not repeat the location. */
  message: string
}

/** A violation found in one `.elicits({...})` entry of a tool. */
export interface ElicitViolation extends Violation {
  tool: string
  key: string
  /** `response` for the response schema, `context` for a declared context schema. */
  part: 'response' | 'context'
}

/**
 * `pickFlight.tags: arrays are only allowed ...` — the form every reporter prints.
 *
 * @example
 * ```ts
 * import { formatViolation } from '@mcp-bridge/runtime/build'
 *
 * formatViolation({ tool: 'book_flight', key: 'pickSeat', part: 'response', property: 'tags', severity: 'error', rule: 'array-not-enum', pointer: '/properties/tags', message: 'arrays are only allowed of enum values' })
 * // 'pickSeat.tags: arrays are only allowed of enum values'
 * ```
 */
export function formatViolation(v: ElicitViolation): string {
  const where = [v.key, v.part === 'context' ? 'context' : undefined, v.property].filter((s): s is string => Boolean(s)).join('.')
  return `${where}: ${v.message}`
}
