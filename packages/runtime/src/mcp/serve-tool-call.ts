/**
 * `tools/call` in the input-required style of MCP 2026-07-28, which the SDK also serves to
 * 2025-11-25 clients (its legacy shim sends the requests itself and re-enters this handler):
 *
 *   round 1: start the tool on the bridge and run it to its first question → `input_required`
 *            with that question and a sealed requestState; or to its end → the result.
 *   round n: verify the state (the SDK's seam already checked its HMAC and expiry), resume the
 *            call through the registry — the suspended generator if this process holds the
 *            current one, else a replay of the stored journal (no step re-runs) — hand it the
 *            client's answer, and run it to its next stop.
 *
 * Between rounds the call waits in this process and in the call store. Cancelling the request
 * aborts it (its `finally` blocks run), and so does a wait that outlives the state's TTL; a state
 * of a call that moved on or finished is refused on every instance sharing the store.
 *
 * The whole round is one Effection operation, run by the tools/call handler in the server's
 * scope; the SDK's promises (the store, the requestState codec) are awaited with `until`.
 */
import { randomUUID } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import { until, type Operation, type Scope } from 'effection'
import {
  inputRequired,
  MissingRequiredClientCapabilityError,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolRequest,
  type CallToolResult,
  type InputRequest,
  type InputRequiredResult,
  type RequestStateCodec,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server'
import type { Clock } from '../time/clock.ts'
import { errorResult, toolResultOf } from '../bridge/tool-result.ts'
import { bridgeOutcomeOf } from '../calls/call-record.ts'
import type { CallRegistry } from '../calls/call-registry.ts'
import type { AnswerWait } from '../calls/parked-calls.ts'
import { mcpAuthOf } from './auth.ts'
import type { McpAuth } from '../tool/caller-auth.ts'
import type { ClientKey } from '../http/client-address.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'
import { digestArguments, questionSeq, type CallState } from './call-state.ts'
import {
  carriesItsRounds,
  clientCapabilitiesOf,
  describeMissing,
  missingRequirements,
  protocolVersionOf,
  requiredCapabilitiesOf,
  supportsFormElicitation,
} from './client-capabilities.ts'
import { mcpCallToStop } from './mcp-surface.ts'
import { needsTasks, speaksTasks, startTask } from './serve-tasks.ts'
import type { McpCall, McpRound } from './mcp-call.ts'
import type { McpSession } from './mcp-session.ts'
import { ParkingSampler } from './parked-sampling.ts'
import { speaksMcpApps, type ResolvedAppViews } from './app-views.ts'
import { holdForView, showResult, type HoldOutcome } from './hold-for-view.ts'
import { sessionCallId } from './session-resumption.ts'
import { StoreUnavailableError } from '../errors/store-errors.ts'
import { forClient, type ErrorLog } from '../errors/client-errors.ts'
import { formatIssues } from '../errors/issues.ts'
import type { JournalEntry } from '../bridge/journal.ts'
import type { Seat } from './view-desk.ts'
import { exceedsJsonBounds } from '../schema/json-schema.ts'
import { MAX_JSON_DEPTH } from '../model-context/json-safe.ts'

export interface ToolCallService {
  tools: ReadonlyMap<string, AnyMcpTool>
  calls: CallRegistry<McpRound>
  codec: RequestStateCodec<CallState>
  clientKey: ClientKey
  /** MCP Apps views by tool, when the server offers any. */
  apps: ResolvedAppViews | undefined
  /** What claim timeouts are measured with (the server's clock). */
  clock: Clock
  /** The server's scope: every round runs as a task of it. */
  scope: Scope
  /** Largest arguments of one call, in bytes of JSON. */
  maxArgumentBytes: number
  /** Largest context of one question, in bytes of JSON (`limits.maxContextBytes`). */
  maxContextBytes: number
  /** How long a call parked between 2026-07-28 rounds waits for the next (`roundHoldMs`). */
  roundHold: AnswerWait
  /** Where failures' details go (a client is told a sentence). */
  logger: ErrorLog
}

/** What an MCP call records for its recovery: the client it serves, as of its first round. */
export interface McpOrigin {
  caps: McpRound['caps']
  version: string | undefined
  /**
   * Its questions are asked by the session that serves it (2025-11-25 and older, and stdio), not
   * carried by the client in a requestState: a copy recovered elsewhere cannot ask them.
   */
  sessionBound?: true
  /** The caller with OAuth: `ctx.auth` on every replay and recovery, as when it started. */
  auth?: McpAuth
  /** A call served as an MCP task (`serve-tasks.ts`): whose it is; only they may get, update or cancel it. */
  task?: { owner: string }
}

export function newRound(argsDigest: string, caps: McpRound['caps'], version: string | undefined): McpRound {
  return { argsDigest, sampler: new ParkingSampler(), caps, version, wait: undefined, inputRequest: undefined, detachCancel: undefined }
}

/** How a call starts beside its tool and arguments: for a task, whose it is (its record is then written before `start` returns). */
export interface StartOptions {
  caps: McpRound['caps']
  version: string | undefined
  traceParent: string | undefined
  task?: { owner: string }
}

export function startCall(service: ToolCallService, ctx: ServerContext, tool: AnyMcpTool, args: unknown, { caps, version, traceParent, task }: StartOptions): Promise<McpCall> {
  const round = newRound(digestArguments(args), caps, version)
  const auth = mcpAuthOf(ctx.http?.authInfo)
  const sessionBound = !carriesItsRounds(version) && !task
  const resumable = sessionBound && ctx.sessionId !== undefined
  return service.calls.start({
    tool,
    params: args,
    // A 2025-11-25 HTTP session's call is found again from its session and request when the
    // session's server stops (`session-resumption.ts`).
    callId: resumable ? sessionCallId(ctx.sessionId!, ctx.mcpReq.id) : randomUUID(),
    // Its client resumes the response stream it already holds (`session-resumption.ts`), and is
    // then told what the store holds: so the store holds the call before the tool runs a step. A
    // task is got by its id on any instance as soon as its client has it.
    ...((resumable || task) && { recordAtStart: true as const }),
    sampling: round.sampler,
    paramsDigest: round.argsDigest,
    // Over HTTP each client has its own share of the suspended calls; a stdio connection is one client.
    client: clientOf(service, ctx),
    issueToken: false, // its requestState, sealed and bound to the client, is what authorises a round
    origin: { caps, version, ...(sessionBound && { sessionBound: true as const }), ...(auth && { auth }), ...(task && { task }) } satisfies McpOrigin,
    ...(auth && { auth }),
    ...(traceParent !== undefined && { traceParent }),
    extra: round,
  })
}

/** Whose share of the held calls a request's call counts against: its client key over HTTP; a stdio connection is one client. */
export function clientOf(service: Pick<ToolCallService, 'clientKey'>, ctx: ServerContext): string {
  const request = ctx.http?.req
  return request ? service.clientKey(request) : 'stdio'
}

export function* serveToolCall(
  service: ToolCallService,
  session: McpSession,
  server: Server,
  request: CallToolRequest,
  ctx: ServerContext,
  /** The request's span (a W3C traceparent), when traced. */
  traceParent?: string,
): Operation<CallToolResult | InputRequiredResult> {
  const { name } = request.params
  const args = request.params.arguments ?? {}
  const oversize = argumentsProblem(name, args, service.maxArgumentBytes)
  if (oversize) throw new ProtocolError(ProtocolErrorCode.InvalidParams, oversize)
  const tool = service.tools.get(name)
  const caps = clientCapabilitiesOf(server, ctx)
  const version = protocolVersionOf(server, ctx)
  const viewed = (t: AnyMcpTool) => service.apps?.uris.has(t.name) === true && speaksMcpApps(caps)
  if (!tool) {
    // Name only what this client is offered: tools it cannot serve stay as hidden as in tools/list.
    const known = [...service.tools.values()]
      .filter((t) => missingRequirements(t, caps, version, viewed(t)).length === 0)
      .map((t) => `"${t.name}"`)
      .join(', ')
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool "${name}". This server has: ${known || 'no tools'}.`)
  }
  const missing = missingRequirements(tool, caps, version, viewed(tool))
  if (missing.length > 0) {
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: requiredCapabilitiesOf(missing) },
      `Tool "${name}" needs the client ${missing.length === 1 ? 'capability' : 'capabilities'} ${describeMissing(missing)}; declare ${missing.length === 1 ? 'it' : 'them'} when connecting, or use another tool.`,
    )
  }

  const tasks = speaksTasks(caps, version)
  if (tool.taskSupport === 'required' && !tasks) throw needsTasks(`Tool "${name}" runs only as a task: it`)
  const state = ctx.mcpReq.requestState<CallState>()
  // A client that speaks tasks gets one for a tool that may ask or run long (`taskSupport`).
  if (state === undefined && tasks && tool.taskSupport !== 'forbidden') {
    try {
      return (yield* startTask(service, ctx, tool, args, { caps, version, traceParent })) as unknown as CallToolResult
    } catch (error) {
      // Not started (a limit, the store): said as a result, as for a call that is not a task.
      if (error instanceof ProtocolError) throw error
      return errorResult(forClient(error, `a tools/call of ${name} could not start as a task`, service.logger).message)
    }
  }
  let call: McpCall
  if (state === undefined) {
    try {
      call = yield* until(startCall(service, ctx, tool, args, { caps, version, traceParent }))
    } catch (error) {
      return errorResult(forClient(error, `a tools/call of ${name} could not start`, service.logger).message)
    }
  } else {
    const resumed = yield* resumeCall(service, tool, args, state, caps, version, ctx, traceParent)
    if ('failed' in resumed) return resumed.failed
    call = resumed.call
    if (!resumed.answered) {
      // The retry carries no answer to our question (a client may drop one), or one that does not
      // fit: ask it again (saying why).
      if (!isModernRound(ctx)) watchCancellation(call, ctx)
      return (yield* parkOrFail(service, call, ctx)) ?? (yield* askAgain(service, call, ctx, resumed.refused))
    }
  }
  watchCancellation(call, ctx)
  const seat = viewSeat(service, session, server, ctx, call, caps)

  for (;;) {
    const stop = yield* mcpCallToStop(service, call, ctx, { allowsLog: (level) => session.allowsLog(level), park: false })
    if (stop.kind === 'done') {
      session.doneWaiting(ctx.mcpReq.id)
      call.extra.detachCancel?.()
      yield* until(service.calls.settled(call))
      const result = toolResultOf(stop.outcome)
      if (seat) showResult(session.desk, seat, result)
      return result
    }
    // A client that renders this tool's view: the view asks, and this request waits for it.
    if (seat && !seat.bypassed && stop.question.wire.wait.kind === 'elicit') {
      // A client without forms has no other way to ask: its view may take as long as it needs.
      const claimTimeoutMs = supportsFormElicitation(caps) ? service.apps!.claimTimeoutMs : Number.POSITIVE_INFINITY
      let held: HoldOutcome
      try {
        // Held in this process while its view answers: pinned, never let go of from memory.
        held = yield* holdForView(session.desk, seat, call, () => parkCall(service, call, true), claimTimeoutMs, service.clock)
      } catch (error) {
        return notSaved(call, error, service.logger)
      }
      if (held !== 'bypassed') continue
    }
    // A 2026-07-28 round ends here (its HTTP exchange closes, and its signal with it); only a
    // 2025-11-25 request spans the rounds, so only its cancellation may reach the waiting call.
    if (isModernRound(ctx)) call.extra.detachCancel?.()
    const notStored = yield* parkOrFail(service, call, ctx)
    if (notStored) return notStored
    if (!isModernRound(ctx)) session.waitingOnClient(ctx.mcpReq.id, call)
    return yield* askAgain(service, call, ctx)
  }
}

/**
 * Park the call on its question; when the store did not take the question, the call has ended
 * (nobody could answer it after a restart or on another instance) and this is the tool's result.
 */
function* parkOrFail(service: ToolCallService, call: McpCall, ctx: ServerContext): Operation<CallToolResult | undefined> {
  try {
    // A 2025-11-25 request spans the rounds and holds on to this copy: pinned in memory. A
    // 2026-07-28 client may never come back, and would not say so: it is held `roundHoldMs`.
    yield* parkCall(service, call, !isModernRound(ctx), isModernRound(ctx) ? service.roundHold : undefined)
    return undefined
  } catch (error) {
    return notSaved(call, error, service.logger)
  }
}

function notSaved(call: McpCall, error: unknown, log: ErrorLog): CallToolResult {
  if (!(error instanceof StoreUnavailableError)) throw error
  const said = forClient(error, `the question of ${call.toolName} (${call.callId}) could not be saved`, log)
  return errorResult(`Tool "${call.toolName}" could not go on: its question could not be saved, so it was not asked. ${said.message}`)
}

/**
 * The view seat of a call, when its questions go to an MCP Apps view: the tool has a view, the
 * client renders them, and the session lasts beyond this request (stdio, a 2025-11-25 HTTP
 * session) — a stateless 2026-07-28 HTTP request has no session the view could reach it in, so
 * its questions stay input-required rounds.
 */
function viewSeat(service: ToolCallService, session: McpSession, server: Server, ctx: ServerContext, call: McpCall, caps: McpRound['caps']): Seat | undefined {
  if (!service.apps?.uris.has(call.toolName) || !speaksMcpApps(caps)) return undefined
  if (isModernRound(ctx) && ctx.http) return undefined
  return session.desk.open(call, ctx.mcpReq.id, call.extra.argsDigest)
}

/** Store the question (any instance sharing the store can take the answer) and wait for it. */
export function* parkCall(service: ToolCallService, call: McpCall, pinned: boolean, answerWait?: AnswerWait): Operation<void> {
  const { wait, inputRequest } = call.extra
  const question = { id: wait!.inputKey, key: call.host.pending()?.key ?? 'sample', wire: { wait, inputRequest } }
  yield* until(service.calls.park(call, question, { pinned, ...(answerWait && { wait: answerWait }) }))
}

function isModernRound(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined
  return envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined
}

function* resumeCall(
  service: ToolCallService,
  tool: AnyMcpTool,
  args: unknown,
  state: CallState,
  caps: McpRound['caps'],
  version: string | undefined,
  ctx: ServerContext,
  traceParent: string | undefined,
): Operation<{ call: McpCall; answered: boolean; refused?: string } | { failed: CallToolResult | InputRequiredResult }> {
  if (state?.v !== 2 || state.tool !== tool.name || state.args !== digestArguments(args)) {
    throw invalidState('it was issued for another tool call (different tool or arguments)')
  }
  // The requestState is sealed to this principal already; the caller also binds the call to its user.
  const caller = mcpAuthOf(ctx.http?.authInfo)
  const resumed = yield* until(
    service.calls.resume(state.callId, {
      revision: state.rev,
      ...(caller && { caller }),
      ...(traceParent !== undefined && { traceParent }),
      replay: (record) => {
        const round = newRound(record.paramsDigest, caps, version)
        const auth = (record.origin as Partial<McpOrigin> | undefined)?.auth
        return { tool, sampling: round.sampler, extra: round, ...(auth && { auth }) }
      },
    }),
  )
  if (!resumed.ok) {
    if (resumed.code === 'FINISHED' || resumed.code === 'STALE') {
      // A retried round whose answer was taken (its response was lost, or its server stopped
      // and the call was recovered): where the call is now, never its answer applied twice.
      const now = yield* whereItIsNow(service, tool, state, ctx)
      if (now) return { failed: now }
    }
    if (resumed.code === 'FINISHED') throw invalidState(`that tool call is over, ${resumed.how}`)
    // Busy is not the state's fault: said as the registry says it (who holds the call, until when).
    if (resumed.code === 'BUSY') throw new ProtocolError(ProtocolErrorCode.InvalidParams, resumed.message)
    if (resumed.code === 'STALE') throw invalidState('it is stale: the call has moved on since')
    if (resumed.code === 'REPLAY_FAILED') return { failed: errorResult(resumed.message) }
    throw invalidState(resumed.message.replace(/\.$/, ''))
  }
  const { call } = resumed
  if (resumed.replayed) {
    // Not held here (a restart, another instance): replay the journal up to the same question.
    const stop = yield* mcpCallToStop(service, call, ctx, { replayingTo: state.wait.inputKey })
    if (stop.kind === 'done') {
      return {
        failed:
          stop.outcome.status === 'failed'
            ? toolResultOf(stop.outcome)
            : errorResult(`Tool "${tool.name}" could not be resumed: replaying its journal did not lead back to the question it was waiting for. Call the tool again.`),
      }
    }
  } else {
    call.extra.detachCancel?.()
  }
  call.extra.caps = caps
  call.extra.version = version

  const answer = ctx.mcpReq.inputResponses?.[state.wait.inputKey]
  if (answer === undefined) return { call, answered: false }
  let refused: string | undefined
  try {
    refused = deliver(call, answer)
  } catch (error) {
    yield* parkCall(service, call, !isModernRound(ctx)) // nothing was applied: the call keeps waiting for a proper answer
    throw error
  }
  // An answer that does not fit: the question stays open, asked again with why.
  return refused === undefined ? { call, answered: true } : { call, answered: false, refused }
}

/** The question asked again after an answer that did not fit: its message begins with why. */
export function withReason(request: InputRequest, refused: string): InputRequest {
  const params = request.params as { message?: string } | undefined
  return { ...request, params: { ...request.params, message: `That answer did not fit (${refused}). ${params?.message ?? ''}`.trimEnd() } } as InputRequest
}

/**
 * For a state whose question was answered (the call's journal went past it): the call's result if
 * it ended, or its current question with a fresh state — for a retry of that round with its
 * answer, or with none. A retry with another answer is refused (the first was kept). `undefined`
 * when the question was never answered (the call ended otherwise: it timed out, it was
 * cancelled), which stays a refusal.
 */
function* whereItIsNow(service: ToolCallService, tool: AnyMcpTool, state: CallState, ctx: ServerContext): Operation<CallToolResult | InputRequiredResult | undefined> {
  const record = yield* until(service.calls.store.get(state.callId))
  if (!record || record.journal.length < questionSeq(state.wait)) return undefined
  const retried = ctx.mcpReq.inputResponses?.[state.wait.inputKey]
  if (retried !== undefined && !sameAnswer(tool, record.journal[questionSeq(state.wait) - 1], retried)) {
    throw invalidState('it is stale: its question was answered already, with another answer (which was kept)')
  }
  if (record.outcome) return toolResultOf(bridgeOutcomeOf(record.outcome, record.journal))
  const wire = record.pending?.wire as Pick<McpRound, 'wait' | 'inputRequest'> | undefined
  if (record.status !== 'waiting' || !wire?.wait || !wire.inputRequest) return undefined
  const next: CallState = { ...state, wait: wire.wait, rev: record.revision }
  return inputRequired({ inputRequests: { [wire.wait.inputKey]: wire.inputRequest }, requestState: yield* until(service.codec.mint(next, ctx)) })
}

/**
 * Hand the client's answer to the waiting call. The tool never sees data its schema refuses: an
 * answer that does not fit is refused, its question kept open, and why is returned (for the
 * question asked again); one that is not an elicitation result at all is a protocol error.
 */
export function deliver(call: McpCall, answer: unknown): string | undefined {
  const wait = call.extra.wait!
  if (wait.kind === 'sample') {
    // The sample step validates the message and throws a SamplingResponseError into the tool if it is malformed.
    call.extra.sampler.current?.resolvers.resolve(answer as never)
    return undefined
  }
  const outcome = call.host.respond({ id: wait.elicitId, result: answer as never })
  if (outcome.ok) return undefined
  if (outcome.code === 'INVALID_CONTENT') return formatIssues(outcome.issues ?? [])
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `inputResponses["${wait.inputKey}"]: ${outcome.message}`)
}

/** Whether a retried round's answer is the one its question got (as the tool received it: parsed by the key's schema). */
function sameAnswer(tool: AnyMcpTool, entry: JournalEntry | undefined, retried: unknown): boolean {
  if (entry?.kind !== 'elicit' || !('result' in entry)) return true // a sample, or a refusal the tool was handed: nothing to compare
  const given = retried as { action?: unknown; content?: unknown } | null
  if (given?.action !== entry.result.action) return false
  if (entry.result.action !== 'accept') return true
  const parsed = tool.compiled[entry.name]?.response.safeParse(given.content)
  return parsed?.success === true && isDeepStrictEqual(parsed.data, entry.result.content)
}

/**
 * Return the pending question with a fresh state (the journal has grown since the last one);
 * after an answer that did not fit, its message says why first.
 */
function* askAgain(service: ToolCallService, call: McpCall, ctx: ServerContext, refused?: string): Operation<InputRequiredResult> {
  const { wait } = call.extra
  const inputRequest = refused === undefined ? call.extra.inputRequest : withReason(call.extra.inputRequest!, refused)
  const state: CallState = {
    v: 2,
    callId: call.callId,
    tool: call.toolName,
    args: call.extra.argsDigest,
    wait: wait!,
    rev: call.revision,
  }
  return inputRequired({
    inputRequests: { [wait!.inputKey]: inputRequest! },
    requestState: yield* until(service.codec.mint(state, ctx)),
  })
}

/**
 * The request's cancellation aborts the tool. A 2025-11-25 client's request spans every round
 * (the SDK's shim re-enters this handler under it), so the listener stays while the call waits
 * and is replaced when the next round claims it.
 */
function watchCancellation(call: McpCall, ctx: ServerContext): void {
  const signal = ctx.mcpReq.signal
  const onAbort = () => void call.host.abort('the client cancelled the request')
  if (signal.aborted) return onAbort()
  signal.addEventListener('abort', onAbort, { once: true })
  call.extra.detachCancel = () => signal.removeEventListener('abort', onAbort)
}

/**
 * Why a call's arguments are refused before anything reads them, if they are: nested past
 * MAX_JSON_DEPTH (checked without recursion, so a hostile nesting costs no stack), or larger than
 * `max` bytes of JSON (a suspended call holds them).
 */
function argumentsProblem(tool: string, args: unknown, max: number): string | undefined {
  if (exceedsJsonBounds(args, { depth: MAX_JSON_DEPTH, nodes: Number.POSITIVE_INFINITY })) {
    return `The arguments of "${tool}" nest deeper than ${MAX_JSON_DEPTH} levels; no tool takes that. Nothing was run.`
  }
  const bytes = Buffer.byteLength(JSON.stringify(args))
  if (bytes > max) return `The arguments of "${tool}" are ${bytes} bytes of JSON; this server takes at most ${max} (limits.maxArgumentBytes). Nothing was run.`
  return undefined
}

function invalidState(why: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `This requestState cannot be used: ${why}.`)
}
