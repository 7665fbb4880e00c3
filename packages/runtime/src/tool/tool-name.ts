/**
 * MCP 2025-11-25 tool-name guidance: 1–128 characters, case-sensitive, only ASCII letters,
 * digits, underscore, hyphen and dot. The spec says SHOULD; we enforce it because model APIs
 * (OpenAI's `^[a-zA-Z0-9_-]{1,64}$`, for one) reject worse names at call time, far from the cause.
 */
import { InvalidToolNameError } from '../errors/definition-errors.ts'

const ALLOWED = /^[A-Za-z0-9_.-]+$/
export const MAX_TOOL_NAME_LENGTH = 128

/**
 * The reason a name breaks the guidance, or undefined when it is fine.
 *
 * @example
 * ```ts
 * import { toolNameProblem } from '@mcp-bridge/runtime/build'
 *
 * toolNameProblem('book_flight') // undefined: a good name
 * toolNameProblem('book flight') // 'it contains a space'
 * ```
 */
export function toolNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return `a tool name must be a string (got ${typeof name})`
  if (name.length === 0) return 'it is empty'
  if (name.length > MAX_TOOL_NAME_LENGTH) return `it is ${name.length} characters long (at most ${MAX_TOOL_NAME_LENGTH})`
  if (!ALLOWED.test(name)) {
    const bad = [...new Set([...name].filter((c) => !/[A-Za-z0-9_.-]/.test(c)))]
    return `it contains ${bad.map((c) => (c === ' ' ? 'a space' : JSON.stringify(c))).join(', ')}`
  }
  if (name === '__schema__') return '"__schema__" is reserved for structured sampling output'
  return undefined
}

export function assertToolName(name: unknown): asserts name is string {
  const problem = toolNameProblem(name)
  if (problem) throw new InvalidToolNameError(String(name), problem)
}
