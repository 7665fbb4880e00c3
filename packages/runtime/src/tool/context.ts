/**
 * The `ctx` a tool body receives; `createBridgeHost` (server) implements it. Phases that run on
 * the server only (`before`, `after` of a handoff) get the smaller `ServerPhaseContext`: no user
 * and no model there.
 */
import type { Operation } from 'effection'
import type { z } from 'zod/v4'
import type { CallerAuth } from './caller-auth.ts'
import type { SampleOptions, SampleResult, StructuredSampleOptions } from '../sampling/types.ts'
import type { ElicitContent, ElicitKey, ElicitOptions, ElicitResult, ElicitRetryOptions, ElicitsMap } from './elicits.ts'

/** MCP logging levels (RFC 5424 severities), lowest first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const
/**
 * An MCP logging level for `ctx.log(level, message)`: `debug`, `info`, `notice`, `warning`, `error`, `critical`, `alert` or `emergency`.
 */
export type LogLevel = (typeof LOG_LEVELS)[number]

/**
 * Which call a tool body runs in: the tool, the call id and (over an MCP endpoint with OAuth) who called.
 */
export interface ToolCallInfo {
  readonly toolName: string
  /** The LLM's tool-call id (in-app) or the server's own call id (MCP). */
  readonly callId: string
  /**
   * Who called: the signed-in user the app's `authenticate(request)` named (chat, AI SDK bridge),
   * or the token's client, subject and scopes as `verifyToken` said (MCP with OAuth) — never the
   * credential. The same on every replay, on another instance and after recovery. Undefined when
   * nobody is signed in. Look up what the tool needs for the app's API (a session, an API key)
   * on the server from `subject`; never carry it through the call.
   */
  readonly auth?: CallerAuth
}

/** Reporting: logs and progress become events (in-app) or MCP notifications. */
export interface ReportingContext extends ToolCallInfo {
  log(level: LogLevel, message: string, data?: unknown): Operation<void>
  /** Progress: `progress` of `total` (both optional; total unknown when omitted). */
  notify(message: string, progress?: number, total?: number): Operation<void>
}

export interface SamplingContext extends ReportingContext {
  /** Ask the host's model; raw text. Runs server-side. */
  sample(options: SampleOptions): Operation<SampleResult>
  /** Ask the host's model for structured output validated with `schema`. */
  sample<S extends z.ZodType>(options: StructuredSampleOptions<S>): Operation<SampleResult<z.output<S>>>
  /**
   * Run a sub-computation that collapses into a value (a "sub-agent"). Sampling works inside;
   * elicitation does not (a branch may not talk to the user), and throws `ElicitInBranchError`.
   */
  branch<T>(body: (ctx: BranchContext) => Operation<T>): Operation<T>
}

/** What a branch body receives: everything but `elicit`. */
export type BranchContext = SamplingContext

/**
 * `ctx.elicit`: ask a declared question and get its `ElicitResult`; `.strict` returns the content (throws on decline or cancel); `.withRetry` asks again on decline.
 */
export interface ElicitFunction<E extends ElicitsMap> {
  /** Ask the user for the declared `key`; the answer's type follows the key. */
  <K extends ElicitKey<E>>(key: K, options: ElicitOptions<E[K]>): Operation<ElicitResult<ElicitContent<E[K]>>>
  /** Like `elicit`, but returns the content and throws on decline / cancel. */
  strict<K extends ElicitKey<E>>(key: K, options: ElicitOptions<E[K]>): Operation<ElicitContent<E[K]>>
  /** Ask again on decline, up to `maxAttempts` (see `ElicitRetryOptions`). */
  withRetry<K extends ElicitKey<E>>(key: K, options: ElicitOptions<E[K]> & ElicitRetryOptions): Operation<ElicitResult<ElicitContent<E[K]>>>
}

/** What a step's body is told about itself. */
export interface StepInfo {
  /**
   * `<callId>:<name>#<seq>`: the same every time this step is reached in this call, on any
   * instance. Hand it to an external system as an idempotency key, so even a step cut off by a
   * crash before its result was recorded (and run again on resume) takes effect once.
   */
  readonly idempotencyKey: string
}

/**
 * `ctx.step(name, body)`: a journaled side effect. It runs once; its result (plain JSON) is
 * recorded; when the call is resumed elsewhere or after a restart, replay returns the recorded
 * value without running `body`. Code outside steps runs again on every resume and must be
 * deterministic. A step that throws fails as a `StepFailedError` (the same on replay). Steps may
 * not nest, and do not run inside `ctx.branch` (concurrent work has no replayable order).
 */
export interface StepFunction {
  <T>(name: string, body: (info: StepInfo) => Operation<T> | Promise<T>): Operation<T>
}

/**
 * `ctx.patched(name)`: change a tool while calls of it are in flight (the idea of Temporal's
 * `patched`). Put the new code behind it and keep the old:
 *
 * ```ts
 * if (yield* ctx.patched('seat-fee')) yield* ctx.step('charge seat fee', chargeFee)
 * ```
 *
 * A call recorded before the change replays the old path (false); a new call, or one going on
 * past what it recorded, takes the new path (true), and the choice is kept in its journal so
 * every replay takes the same one. Once no call started before the change is left (their
 * retention, `idleTimeoutMs`, has passed), drop the condition and keep the new code.
 */
export interface PatchedFunction {
  (name: string): Operation<boolean>
}

/** The context of `execute` and of a handoff's `client` phase. */
export interface McpToolContext<E extends ElicitsMap> extends SamplingContext {
  elicit: ElicitFunction<E>
  step: StepFunction
  patched: PatchedFunction
}

/**
 * The context of a handoff's `before` phase (server-only; `before` is itself one step, so it
 * reports but takes no steps of its own).
 */
export type ServerPhaseContext = ReportingContext

/** The context of a handoff's `after` phase: server-only, and it may take steps (a charge). */
export interface AfterPhaseContext extends ReportingContext {
  step: StepFunction
  patched: PatchedFunction
}
