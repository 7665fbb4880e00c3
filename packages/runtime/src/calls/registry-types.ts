/**
 * What a `CallRegistry` is given and what it answers: its options, a call to start, how a surface
 * carries on a recovered call, a refusal, and how a request resumes a call.
 */
import type { McpBridgeLogger } from '../telemetry/logger.ts'
import type { Scope } from 'effection'
import type { SamplingProvider } from '../sampling/provider.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'
import type { CallerAuth } from '../tool/caller-auth.ts'
import type { Clock } from '../time/clock.ts'
import type { CallLimits } from './call-limits.ts'
import type { AnswerWait } from './parked-calls.ts'
import type { LiveCall } from './live-call.ts'
import type { CallRecord, CallStore, CallSurface } from './stores/call-store.ts'

/**
 * How a `CallRegistry` holds calls: its limits, the store, its surface, and how to carry a call on.
 */
export interface CallRegistryOptions<X = undefined> {
  /**
   * The limits of the surface's calls (`CallLimits`; those not given are the defaults), quoted in
   * refusals by their option names (`limits.maxCallsPerClient`). `maxContextBytes` is the driver's.
   */
  limits?: Partial<CallLimits>
  /** Where the registry says what it did on its own (a recovered call). Default: the console. */
  logger?: McpBridgeLogger
  /** Other waits `park` may be given (for the reason a call that outlived one ends with, on any instance). */
  otherWaits?: readonly AnswerWait[]
  /** Where records live (default: this process's memory). */
  store?: CallStore
  /**
   * Which surface the calls belong to, recorded with each call: this registry resumes, aborts and
   * recovers only calls of its own surface (another surface's sharing the store are left to it).
   */
  surface: CallSurface
  /** This instance, as recorded in `owner` (default: random). */
  instanceId?: string
  /**
   * How a call whose instance stopped while it ran is run on here: what it runs with, and what
   * carries it to its next stop. Without it this registry recovers nothing (another may).
   */
  recover?: (record: CallRecord) => RecoveryPlan<X> | undefined
  /** Most recovered calls being driven at once by this registry (default 8). */
  recoveryConcurrency?: number
  /** What leases, idle times and record expiry are measured with (default: wall time). */
  clock?: Clock
  /**
   * The scope the registry lives in (a server's): its calls and timers run in a child of it, so
   * they end when it ends. Default: a scope of its own.
   */
  scope?: Scope
}

/**
 * What a registry needs to start a call: the tool, its parameters, the client, and what the serving side keeps with it.
 */
export interface StartCall<X> {
  tool: AnyMcpTool
  params: unknown
  callId: string
  sampling?: SamplingProvider
  /** sha256 of the arguments (MCP requestStates are bound to it). */
  paramsDigest?: string
  /** Whose call it is, for the per-client limit (e.g. the remote address). */
  client: string
  /** Who called: the tool's `ctx.auth`, recorded with the call (the same on every replay, resume and recovery). */
  auth?: CallerAuth
  /** The span of the request or turn that starts the call (a W3C traceparent): its trace is the call's. */
  traceParent?: string
  /** `false`: no token; requests for the call are authorised otherwise (an MCP call's sealed state). */
  issueToken?: false
  /** Stored with the call for its recovery (see `CallRecord.origin`). */
  origin?: unknown
  /**
   * Write the call's first record before `start` returns (else at its first step or stop): for a
   * surface that shows the call before it stops (the chat's tool card, the AI SDK's part), so a
   * crash right after leaves a record the page names and recovery runs on.
   */
  recordAtStart?: true
  extra: X
}

/** How a surface runs on a call recovered from its journal. */
export interface RecoveryPlan<X> {
  spec: Omit<StartCall<X>, 'callId' | 'params' | 'client' | 'paramsDigest' | 'origin'>
  /** Carry the call to its next stop: park it on its question, or report its end. */
  drive(call: LiveCall<X>, record: CallRecord): Promise<void>
}

/**
 * A call as a registry lists it: id, tool, client, status, when it started and the key it waits for.
 */
export interface LiveCallInfo {
  callId: string
  toolName: string
  client: string
  status: string
  createdAt: number
  /** The key of the question it waits for, if any. */
  pendingKey: string | undefined
}

/** Why a request may not resume or abort a call. `code` is stable; `message` says it for people. */
export interface CallRefusal {
  ok: false
  code: 'NOT_FOUND' | 'FINISHED' | 'BUSY' | 'WRONG_TOKEN' | 'FORBIDDEN' | 'STALE' | 'REPLAY_FAILED'
  message: string
  /** FINISHED: how it ended ("it completed", "it was aborted: ..."). */
  how?: string
  /** BUSY: when the hold on the call lapses at the latest (ms): when to try again. */
  retryAfterMs?: number
}

export interface ResumeOptions<X> {
  /** The token the request presents (chat); MCP requests are authorised by their sealed state. */
  token?: unknown
  /** Who sends the request: a call someone signed-in started is theirs alone (`FORBIDDEN` for anyone else). */
  caller?: CallerAuth
  /**
   * The conversation the request comes from (chat; null: it names none): a call kept in another
   * conversation is refused (`FORBIDDEN`), so a leaked token works only where the call was asked.
   */
  conversation?: string | null
  /** The revision the request saw (an MCP requestState); a record that moved on since is stale. */
  revision?: number
  /** What a replayed call runs with: its tool (by name), sampling and serving-side state. */
  replay: (record: CallRecord) => Omit<StartCall<X>, 'callId' | 'params' | 'client' | 'paramsDigest' | 'origin'> | undefined
  /** The span of the request bringing the answer (a W3C traceparent): the call's next part links to it. */
  traceParent?: string
  /**
   * No token is checked: the server's own developer tooling (the Vite plugin's dev panel, in
   * `vite dev` only) answers the call. Never set from a request.
   */
  trusted?: true
}

export type Resumed<X> = { ok: true; call: LiveCall<X>; replayed: boolean; record: CallRecord } | CallRefusal
