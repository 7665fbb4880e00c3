/**
 * Builds the `ctx` object a tool body receives from the few primitives a host provides. The
 * helpers (`elicit.strict`, `elicit.withRetry`, `branch`) are compositions of those primitives,
 * so every host (in-app bridge, MCP server, tests) gets identical semantics for free.
 */
import { createContext, scoped, type Operation } from 'effection'
import type { z } from 'zod'
import type { SampleOptions, SampleResult } from '../sampling/types.ts'
import { LOG_LEVELS, type LogLevel, type McpToolContext, type SamplingContext, type ServerPhaseContext } from '../tool/context.ts'
import type { ElicitResult, ElicitRetryOptions, ElicitsMap } from '../tool/elicits.ts'
import { ElicitationCancelledError, ElicitationDeclinedError, ElicitInBranchError } from './errors.ts'
import type { ElicitId } from '../tool/elicits.ts'

/** How deep in `ctx.branch` the current operation runs; scope-bound, so concurrent work is unaffected. */
const BranchDepth = createContext<number>('@mcp-bridge/branch-depth', 0)

export interface ToolPrimitives {
  toolName: string
  callId: string
  /** Ask once; resolves with the validated result (and the id it was asked under). */
  elicit(key: string, options: Record<string, unknown>): Operation<{ id: ElicitId; result: ElicitResult<unknown> }>
  sample(options: SampleOptions & { schema?: z.ZodType }): Operation<SampleResult<unknown>>
  log(level: LogLevel, message: string, data?: unknown): void
  notify(message: string, progress?: number, total?: number): void
}

export function createToolContext<E extends ElicitsMap>(p: ToolPrimitives): McpToolContext<E> {
  function* ask(key: string, options: Record<string, unknown>) {
    if (((yield* BranchDepth.get()) ?? 0) > 0) throw new ElicitInBranchError(p.toolName, key)
    return yield* p.elicit(key, options)
  }

  function* elicit(key: string, options: Record<string, unknown>): Operation<ElicitResult<unknown>> {
    return (yield* ask(key, options)).result
  }

  function* strict(key: string, options: Record<string, unknown>): Operation<unknown> {
    const { id, result } = yield* ask(key, options)
    if (result.action === 'accept') return result.content
    throw result.action === 'decline' ? new ElicitationDeclinedError(id) : new ElicitationCancelledError(id)
  }

  function* withRetry(key: string, options: Record<string, unknown> & ElicitRetryOptions): Operation<ElicitResult<unknown>> {
    const { maxAttempts, onDecline, retryMessage, ...rest } = options
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
      throw new TypeError(`ctx.elicit.withRetry("${key}"): maxAttempts must be a whole number >= 1 (got ${maxAttempts})`)
    }
    if (!['retry', 'error', 'return'].includes(onDecline)) {
      throw new TypeError(`ctx.elicit.withRetry("${key}"): onDecline must be 'retry', 'error' or 'return'`)
    }
    for (let attempt = 1; ; attempt++) {
      const message = attempt > 1 && retryMessage !== undefined ? retryMessage : rest.message
      const { id, result } = yield* ask(key, { ...rest, message })
      if (result.action !== 'decline' || onDecline === 'return') return result
      if (onDecline === 'error' || attempt >= maxAttempts) throw new ElicitationDeclinedError(id, attempt)
    }
  }

  const reporting = {
    toolName: p.toolName,
    callId: p.callId,
    *log(level: LogLevel, message: string, data?: unknown): Operation<void> {
      if (!(LOG_LEVELS as readonly string[]).includes(level)) {
        throw new TypeError(`ctx.log: "${String(level)}" is not an MCP log level (${LOG_LEVELS.join(', ')})`)
      }
      p.log(level, String(message), data)
    },
    *notify(message: string, progress?: number, total?: number): Operation<void> {
      for (const [name, n] of [['progress', progress], ['total', total]] as const) {
        if (n !== undefined && (typeof n !== 'number' || !Number.isFinite(n))) {
          throw new TypeError(`ctx.notify: ${name} must be a finite number (got ${String(n)})`)
        }
      }
      p.notify(String(message), progress, total)
    },
  }

  const sampling: SamplingContext = {
    ...reporting,
    sample: p.sample as SamplingContext['sample'],
    *branch<T>(body: (ctx: SamplingContext) => Operation<T>): Operation<T> {
      return yield* scoped(function* () {
        yield* BranchDepth.set(((yield* BranchDepth.get()) ?? 0) + 1)
        return yield* body(sampling)
      })
    },
  }

  const elicitFn = Object.assign(elicit, { strict, withRetry }) as unknown as McpToolContext<E>['elicit']
  return { ...sampling, elicit: elicitFn }
}

/** The server-only context of handoff `before` / `after`: reporting, no user, no model. */
export function createServerPhaseContext(p: ToolPrimitives): ServerPhaseContext {
  const { toolName, callId, log, notify } = createToolContext(p)
  return { toolName, callId, log, notify }
}
