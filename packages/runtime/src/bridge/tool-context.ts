/**
 * Builds the `ctx` object a tool body receives from the few primitives a host provides. The
 * helpers (`elicit.strict`, `elicit.withRetry`, `branch`) are compositions of those primitives,
 * so every host (in-app bridge, MCP server, tests) gets identical semantics for free.
 */
import { createContext, scoped, type Operation } from 'effection'
import type { CallerAuth } from '../tool/caller-auth.ts'
import type { z } from 'zod/v4'
import type { SampleOptions, SampleResult } from '../sampling/types.ts'
import { LOG_LEVELS, type AfterPhaseContext, type LogLevel, type McpToolContext, type SamplingContext, type ServerPhaseContext, type StepInfo } from '../tool/context.ts'
import type { ElicitResult, ElicitRetryOptions, ElicitsMap } from '../tool/elicits.ts'
import { ElicitationCancelledError, ElicitationDeclinedError, ElicitInBranchError, ToolContextUsageError } from '../errors/call-errors.ts'

/** How deep in `ctx.branch` the current operation runs; scope-bound, so concurrent work is unaffected. */
const BranchDepth = createContext<number>('@mcp-bridge/branch-depth', 0)
/** The step whose body is running, if any: steps do not nest (an inner one would not replay). */
const InStep = createContext<string | undefined>('@mcp-bridge/in-step', undefined)

export type StepBody = (info: StepInfo) => Operation<unknown> | Promise<unknown>

export interface ToolPrimitives {
  toolName: string
  callId: string
  /** The caller over an MCP endpoint with OAuth (`ctx.auth`). */
  auth?: CallerAuth
  /** Ask once; resolves with the validated result. */
  elicit(key: string, options: Record<string, unknown>): Operation<ElicitResult<unknown>>
  sample(options: SampleOptions & { schema?: z.ZodType }): Operation<SampleResult<unknown>>
  /** Run a step once (or return its recorded result); the guards are applied here. */
  step(name: string, body: StepBody): Operation<unknown>
  /** Which path the call takes at a patch (see `PatchedFunction`). */
  patched(name: string): Operation<boolean>
  log(level: LogLevel, message: string, data?: unknown): void
  notify(message: string, progress?: number, total?: number): void
}

export function createToolContext<E extends ElicitsMap>(p: ToolPrimitives): McpToolContext<E> {
  // Thin arrows over module-level generators: a generator function created per call would give
  // every call its own generator prototype (~1 KB each once used), and a suspended call holds
  // its ctx for as long as it waits.
  const elicit = Object.assign((key: string, o: Record<string, unknown>) => elicitOnce(p, key, o), {
    strict: (key: string, o: Record<string, unknown>) => elicitStrict(p, key, o),
    withRetry: (key: string, o: Record<string, unknown> & ElicitRetryOptions) => elicitWithRetry(p, key, o),
  })
  const ctx: SamplingContext & { elicit: unknown; step: unknown; patched: unknown } = {
    toolName: p.toolName,
    callId: p.callId,
    ...(p.auth && { auth: p.auth }),
    log: (level: LogLevel, message: string, data?: unknown) => log(p, level, message, data),
    notify: (message: string, progress?: number, total?: number) => notify(p, message, progress, total),
    sample: p.sample as SamplingContext['sample'],
    branch: <T>(body: (ctx: SamplingContext) => Operation<T>) => branch(ctx, body),
    elicit,
    step: (name: string, body: StepBody) => step(p, name, body),
    patched: (name: string) => patched(p, name),
  }
  return ctx as McpToolContext<E>
}

function* ask(p: ToolPrimitives, key: string, options: Record<string, unknown>) {
  if (((yield* BranchDepth.get()) ?? 0) > 0) throw new ElicitInBranchError(p.toolName, key)
  const outer = yield* InStep.get()
  if (outer !== undefined) {
    throw new ToolContextUsageError(p.toolName, `ctx.elicit("${key}") inside step "${outer}": a step runs once and may not ask the user; ask before or after it`)
  }
  return yield* p.elicit(key, options)
}

function* elicitOnce(p: ToolPrimitives, key: string, options: Record<string, unknown>): Operation<ElicitResult<unknown>> {
  return yield* ask(p, key, options)
}

function* elicitStrict(p: ToolPrimitives, key: string, options: Record<string, unknown>): Operation<unknown> {
  const result = yield* ask(p, key, options)
  if (result.action === 'accept') return result.content
  throw result.action === 'decline' ? new ElicitationDeclinedError(p.toolName, key) : new ElicitationCancelledError(p.toolName, key)
}

function* elicitWithRetry(p: ToolPrimitives, key: string, options: Record<string, unknown> & ElicitRetryOptions): Operation<ElicitResult<unknown>> {
  const { maxAttempts, onDecline, retryMessage, ...rest } = options
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new ToolContextUsageError(p.toolName, `ctx.elicit.withRetry("${key}"): maxAttempts must be a whole number >= 1 (got ${maxAttempts})`)
  }
  if (!['retry', 'error', 'return'].includes(onDecline)) {
    throw new ToolContextUsageError(p.toolName, `ctx.elicit.withRetry("${key}"): onDecline must be 'retry', 'error' or 'return'`)
  }
  for (let attempt = 1; ; attempt++) {
    const message = attempt > 1 && retryMessage !== undefined ? retryMessage : rest.message
    const result = yield* ask(p, key, { ...rest, message })
    if (result.action !== 'decline' || onDecline === 'return') return result
    if (onDecline === 'error' || attempt >= maxAttempts) throw new ElicitationDeclinedError(p.toolName, key, attempt)
  }
}

function* step(p: ToolPrimitives, name: string, body: StepBody): Operation<unknown> {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new ToolContextUsageError(p.toolName, 'ctx.step(name, body) needs a non-empty name; it identifies the step in the journal')
  }
  if (typeof body !== 'function') throw new ToolContextUsageError(p.toolName, `ctx.step("${name}", body): body must be a function`)
  if (((yield* BranchDepth.get()) ?? 0) > 0) {
    throw new ToolContextUsageError(p.toolName, `ctx.step("${name}") inside ctx.branch: concurrent work has no order to replay; take the step outside the branch`)
  }
  const outer = yield* InStep.get()
  if (outer !== undefined) {
    throw new ToolContextUsageError(p.toolName, `ctx.step("${name}") inside step "${outer}": steps do not nest (the inner one would not replay); make them siblings`)
  }
  return yield* scoped(function* () {
    yield* InStep.set(name)
    return yield* p.step(name, body)
  })
}

function* patched(p: ToolPrimitives, name: string): Operation<boolean> {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new ToolContextUsageError(p.toolName, 'ctx.patched(name) needs a non-empty name; it marks the change in the journal (e.g. "add-seat-fee")')
  }
  if (((yield* BranchDepth.get()) ?? 0) > 0) {
    throw new ToolContextUsageError(p.toolName, `ctx.patched("${name}") inside ctx.branch: concurrent work has no order to replay; take it outside the branch`)
  }
  const outer = yield* InStep.get()
  if (outer !== undefined) throw new ToolContextUsageError(p.toolName, `ctx.patched("${name}") inside step "${outer}": a step runs once; decide the path outside it`)
  return yield* p.patched(name)
}

function* log(p: ToolPrimitives, level: LogLevel, message: string, data?: unknown): Operation<void> {
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ToolContextUsageError(p.toolName, `ctx.log: "${String(level)}" is not an MCP log level (${LOG_LEVELS.join(', ')})`)
  }
  p.log(level, String(message), data)
}

function* notify(p: ToolPrimitives, message: string, progress?: number, total?: number): Operation<void> {
  for (const [name, n] of [
    ['progress', progress],
    ['total', total],
  ] as const) {
    if (n !== undefined && (typeof n !== 'number' || !Number.isFinite(n))) {
      throw new ToolContextUsageError(p.toolName, `ctx.notify: ${name} must be a finite number (got ${String(n)})`)
    }
  }
  p.notify(String(message), progress, total)
}

function* branch<T>(ctx: SamplingContext, body: (ctx: SamplingContext) => Operation<T>): Operation<T> {
  return yield* scoped(function* () {
    yield* BranchDepth.set(((yield* BranchDepth.get()) ?? 0) + 1)
    // The branch gets the same object; its type (BranchContext) has no elicit, and a call
    // through a captured outer ctx is refused by the depth check in `ask`.
    return yield* body(ctx)
  })
}

/** The server-only context of a handoff's `before`: reporting, no user, no model, no steps (it is one). */
export function beforePhaseContext(ctx: McpToolContext<ElicitsMap>): ServerPhaseContext {
  return { toolName: ctx.toolName, callId: ctx.callId, ...(ctx.auth && { auth: ctx.auth }), log: ctx.log, notify: ctx.notify }
}

/** The server-only context of a handoff's `after`: reporting and steps. */
export function afterPhaseContext(ctx: McpToolContext<ElicitsMap>): AfterPhaseContext {
  return { ...beforePhaseContext(ctx), step: ctx.step, patched: ctx.patched }
}
