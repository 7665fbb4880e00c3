/**
 * Errors a tool call can raise while it runs. They are isomorphic (exported from the core) so
 * client code and tool authors can `instanceof` them; each message names the tool, the key
 * and what to do instead.
 */
import { formatIssues, type IssueSummary } from './issues.ts'
import { McpBridgeError, ToolProblemError } from './mcp-bridge-error.ts'

const listIssues = (issues: readonly IssueSummary[]) => formatIssues(issues, 'list')

export class ToolParamsError extends McpBridgeError {
  readonly code = 'TOOL_PARAMS_INVALID'
  constructor(
    readonly toolName: string,
    readonly issues: readonly IssueSummary[],
  ) {
    super(`Invalid parameters for tool "${toolName}"; the tool did not run:\n${listIssues(issues)}`)
  }
}

export class ConcurrentElicitationError extends McpBridgeError {
  readonly code = 'CONCURRENT_ELICITATION'
  constructor(toolName: string, key: string, pendingKey: string) {
    super(
      `Tool "${toolName}" asked for "${key}" while "${pendingKey}" is still waiting for the user. ` +
        'At most one elicitation may be pending per tool call: yield* each ctx.elicit(...) before the next ' +
        '(do not start them in parallel with all() or spawn()).',
    )
  }
}

export class ElicitInBranchError extends McpBridgeError {
  readonly code = 'ELICIT_IN_BRANCH'
  constructor(toolName: string, key: string) {
    super(
      `Tool "${toolName}" called ctx.elicit("${key}") inside ctx.branch(). A branch is a sub-computation that ` +
        'collapses into a value and cannot talk to the user; elicit before or after the branch (sampling is fine inside).',
    )
  }
}

export class UnsupportedElicitationModeError extends McpBridgeError {
  readonly code = 'UNSUPPORTED_ELICITATION_MODE'
  constructor(toolName: string, key: string, mode: unknown) {
    super(
      `Tool "${toolName}" asked for "${key}" in ${JSON.stringify(mode)} mode. Only form mode is supported; ` +
        'URL-mode elicitation (MCP 2025-11-25) is not. Remove `mode`, or send the user a link in the message.',
    )
  }
}

export class UnknownElicitKeyError extends McpBridgeError {
  readonly code = 'UNKNOWN_ELICIT_KEY'
  constructor(toolName: string, key: string, known: readonly string[]) {
    super(
      `Tool "${toolName}" called ctx.elicit("${key}"), which .elicits({...}) does not declare ` +
        `(declared: ${known.length ? known.map((k) => `"${k}"`).join(', ') : 'none'}). Add it to .elicits({...}).`,
    )
  }
}

export class ElicitContextError extends McpBridgeError {
  readonly code = 'ELICIT_CONTEXT_INVALID'
  constructor(
    toolName: string,
    key: string,
    readonly issues: readonly IssueSummary[],
  ) {
    super(`Tool "${toolName}" passed context to ctx.elicit("${key}") that does not match its context schema:\n${listIssues(issues)}`)
  }
}

export class ElicitationDeclinedError extends McpBridgeError {
  readonly code = 'ELICITATION_DECLINED'
  constructor(
    readonly toolName: string,
    readonly key: string,
    attempts = 1,
  ) {
    super(`The user declined "${key}" of tool "${toolName}"${attempts > 1 ? ` ${attempts} times` : ''}. ` + 'Use ctx.elicit(...) instead of .strict to handle a decline yourself.')
  }
}

export class ElicitationCancelledError extends McpBridgeError {
  readonly code = 'ELICITATION_CANCELLED'
  constructor(
    readonly toolName: string,
    readonly key: string,
  ) {
    super(`The user dismissed "${key}" of tool "${toolName}" without answering. ` + 'Use ctx.elicit(...) instead of .strict to handle a cancel yourself.')
  }
}

export class SamplingSchemaError extends McpBridgeError {
  readonly code = 'SAMPLING_SCHEMA_MISMATCH'
  constructor(
    toolName: string,
    problem: string,
    readonly issues: readonly IssueSummary[] = [],
  ) {
    super(`Tool "${toolName}": the model's structured answer ${problem}${issues.length ? `:\n${listIssues(issues)}` : ''}`)
  }
}

export class SamplingResponseError extends McpBridgeError {
  readonly code = 'SAMPLING_RESPONSE_INVALID'
  constructor(
    toolName: string,
    readonly issues: readonly IssueSummary[],
  ) {
    super(`Tool "${toolName}": the sampling provider returned a malformed message:\n${listIssues(issues)}`)
  }
}

/**
 * Replaying a call's journal met something other than what was recorded: the tool's code changed
 * between suspend and resume, or it reached its steps and questions in another order. The call
 * fails instead of handing a recorded result to the wrong step.
 */
export class JournalDivergenceError extends McpBridgeError {
  readonly code = 'JOURNAL_DIVERGENCE'
  constructor(
    toolName: string,
    /** The entry in the journal, e.g. `step "issue ticket" (#2)`. */
    readonly recorded: string,
    /** What the tool reached instead (`the end of the tool` when it returned early). */
    readonly reached: string,
  ) {
    super(
      `Tool "${toolName}" cannot resume: its journal has ${recorded} where the tool now reaches ${reached}. ` +
        "The tool's code changed since the call was suspended, or code outside ctx.step() is not deterministic " +
        '(Date.now(), Math.random() or a fetch deciding what to ask). Start the call again; wrap side effects and ' +
        'reads of the outside world in ctx.step() so they replay from the journal.',
    )
  }
}

/** A step failed when it first ran; its replay fails the same way without running it again. */
export class StepFailedError extends McpBridgeError {
  readonly code = 'STEP_FAILED'
  constructor(
    toolName: string,
    readonly step: string,
    message: string,
    /** The `code` of the original error, if it had one. */
    readonly causeCode?: string,
  ) {
    super(`Tool "${toolName}": step "${step}" failed: ${message}`)
  }
}

export class ToolAbortedError extends McpBridgeError {
  readonly code = 'TOOL_ABORTED'
  constructor(toolName: string, reason: string) {
    super(`Tool "${toolName}" was aborted: ${reason}`)
  }
}

/**
 * The client's answer to an elicitation did not match the key's response schema, and the host
 * was told to hand that to the tool (MCP clients: there is no UI to show the problem in) instead
 * of refusing it. The tool never sees the invalid data; it can catch this and ask again.
 */
export class ElicitationInvalidResponseError extends McpBridgeError {
  readonly code = 'ELICITATION_RESPONSE_INVALID'
  constructor(
    readonly toolName: string,
    readonly key: string,
    readonly issues: readonly IssueSummary[],
  ) {
    super(`The answer to "${key}" of tool "${toolName}" does not match its schema, so it was not used:\n${listIssues(issues)}`)
  }
}

/**
 * A `ctx` helper was called with arguments it cannot use (a log level that is not an MCP level,
 * a non-numeric progress, an elicit without a message...). TypeScript catches most of these.
 */
export class ToolContextUsageError extends ToolProblemError {
  readonly code = 'TOOL_CONTEXT_MISUSE'
}

/** `ctx.sample` was called on a host that was given no sampling provider. */
export class SamplingUnavailableError extends McpBridgeError {
  readonly code = 'SAMPLING_UNAVAILABLE'
  constructor(readonly toolName: string) {
    super(
      `Tool "${toolName}" called ctx.sample, but the host running it has no sampling provider. ` +
        'Pass one where the call is started (createBridgeHost({ sampling }); the chat handler and the MCP server provide their own).',
    )
  }
}

/**
 * A client capability a tool may need: `elicitation`, `sampling`, or `sampling.tools` (tools in sampling requests).
 */
export type ClientCapabilityName = 'elicitation' | 'sampling' | 'sampling.tools'

/** The connected client did not declare a capability the tool needs . */
export class McpCapabilityError extends McpBridgeError {
  readonly code = 'MISSING_CLIENT_CAPABILITY'
  constructor(
    readonly toolName: string,
    readonly capability: ClientCapabilityName,
    why: string,
  ) {
    super(`Tool "${toolName}" needs the client capability "${capability}" (${why}), which this client did not declare.`)
  }
}

/** A tool with `.returns(schema)` returned a value its schema refuses; nothing of it was reported. */
export class ToolResultInvalidError extends McpBridgeError {
  readonly code = 'TOOL_RESULT_INVALID'
  constructor(
    readonly toolName: string,
    readonly issues: readonly IssueSummary[],
  ) {
    super(`Tool "${toolName}" returned a result its .returns() schema refuses, so it was not sent:\n${listIssues(issues)}`)
  }
}
