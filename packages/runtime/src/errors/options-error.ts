/**
 * Every option the library takes is checked when it is given, so a mistake is one clear error
 * at startup and never a confusing failure in the middle of somebody's tool call. One class for
 * all of them: a host branches on `err.code === 'INVALID_OPTIONS'`, and `err.fn` / `err.options`
 * say which function and which options (`limits.idleTimeoutMs`); the message says what each takes.
 *
 * @example
 * ```ts
 * import { createChatHandler } from '@mcp-bridge/runtime/server'
 * import { OptionsError } from '@mcp-bridge/runtime/errors'
 * import { createScriptedModel } from '@mcp-bridge/runtime/testing'
 * import { serverTools } from './mcp-bridge/server.gen.ts'
 *
 * try {
 *   createChatHandler({ tools: serverTools, model: createScriptedModel({}), limits: { idleTimeoutMs: 10 } })
 * } catch (error) {
 *   if (error instanceof OptionsError) console.error(error.option) // 'limits.idleTimeoutMs'
 * }
 * ```
 */
import { formatIssues, type IssueSummary } from './issues.ts'
import { McpBridgeError } from './mcp-bridge-error.ts'

/**
 * Options a function of the library cannot use (`code: 'INVALID_OPTIONS'`): `fn` names the function, `options` the wrong ones, and the message says what each takes. Thrown when the options are given, never later.
 */
export class OptionsError extends McpBridgeError {
  readonly code = 'INVALID_OPTIONS'
  /** Each wrong option's path (empty for the options object as a whole). */
  readonly options: readonly string[]

  /**
   * `problems`: the issues of a schema check (one line each), or one sentence about `option`.
   * The message starts with `fn` (`createChatHandler: …`).
   */
  constructor(
    readonly fn: string,
    problems: readonly IssueSummary[] | { option?: string; problem: string },
  ) {
    super(Array.isArray(problems) ? `${fn}: invalid options:\n${formatIssues(problems, 'list', '(options)')}` : `${fn}: ${(problems as { problem: string }).problem}`)
    this.options = Array.isArray(problems) ? problems.map((p) => p.path) : [(problems as { option?: string }).option ?? '']
  }

  /** The first wrong option. */
  get option(): string {
    return this.options[0] ?? ''
  }
}
