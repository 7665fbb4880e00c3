/**
 * One chat turn: what happens between receiving a request body and the end of its response.
 *
 *   1. `abort` first: with the call's token, abort that call; its tool answers with an error.
 *   2. `elicitResponses`: check each token, resume the call, and read its events until it asks
 *      again (the response ends there) or finishes (its result joins the conversation). A call
 *      the registry no longer holds becomes `call_not_found` plus a synthetic tool error, so the
 *      model can recover.
 *   3. The model loop: stream text; start each tool call in the registry; when every tool_use of
 *      the last assistant message has its tool_result, call the model again; stop when it
 *      answers without tools, or when a tool waits for the user.
 *
 * This orchestration sits at the HTTP edge and is written with async/await; the tools
 * themselves run as Effection operations in the call registry's scope.
 */
import type { BridgeOutcome } from '../bridge/create-bridge-host.ts'
import { startSpan } from '../telemetry/tracing.ts'
import { errorResult } from '../bridge/tool-result.ts'
import type { CallRegistry } from '../calls/call-registry.ts'
import { CALL_LIMITS, type CallLimits } from '../calls/call-limits.ts'
import type { StoredQuestion } from '../calls/stores/call-store.ts'
import { forClient, type ErrorLog } from '../errors/client-errors.ts'
import type { LiveCall } from '../calls/live-call.ts'
import { driveToStop, runToStop, type CallReport, type DriveOptions } from '../calls/drive-to-stop.ts'
import { browserQuestions } from './chat-question.ts'
import { addToolResult, callEnd, chatResult } from './call-end.ts'
import { encodeElicitRequest } from '../protocol/codec.ts'
import { STOPPED_BY_USER, type ChatRequestBody, type ChatStreamEvent, type ElicitRequestWire } from '../protocol/chat-wire.ts'
import type { McpMessage, ToolResultContent, ToolUseContent } from '../sampling/content.ts'
import { summarizeAnswer } from '../schema/field-labels.ts'
import { withChoices } from '../tool/plain-form.ts'
import type { ElicitRequest } from '../tool/elicit-request.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'
import type { CallerAuth } from '../tool/caller-auth.ts'
import type { ChatModel } from './model.ts'
import { modelSampling } from './model-sampling.ts'

/**
 * The chat handler's bounds (`createChatHandler({ limits })`): the limits of every surface's calls (`CallLimits`: how many are held in all and per client, how long a question waits), and how large requests and conversations may be.
 */
export interface ChatLimits extends CallLimits {
  /** Largest request body accepted (default 1 MiB). */
  maxBodyBytes: number
  /** Model calls per request, so a tool loop cannot run forever (default 8). */
  maxSteps: number
  /** Keep a conversation this long after its last turn, for reloads to restore, in ms (default 7 days). */
  conversationTtlMs: number
  /**
   * Most bytes of a kept conversation's transcript (what a reload shows), default 2 MiB: past it
   * the oldest turns are dropped, so one client cannot grow a conversation, or each turn's cost,
   * without bound. (Its messages are bounded by `maxBodyBytes`.)
   */
  maxTranscriptBytes: number
  /** Conversations one client (`clientKey`) keeps, default 50: a new one past it forgets its oldest. */
  maxConversationsPerClient: number
  /**
   * Bytes one client (`clientKey`) may send (request bodies) and restore (conversations) a
   * second on average, with bursts of 8 × `maxBodyBytes` (default 512 KiB: a 1 MB turn every
   * two seconds after its burst); past it, `429 RATE_LIMITED` with `Retry-After`. A turn's work
   * grows with its size, on the event loop every client shares: this keeps one client's big
   * turns from making everyone else's wait.
   */
  clientBytesPerSecond: number
}

/**
 * The `ChatLimits` a chat handler uses where `limits` does not say.
 */
export const DEFAULT_LIMITS: ChatLimits = {
  ...CALL_LIMITS,
  maxBodyBytes: 1 << 20,
  maxSteps: 8,
  conversationTtlMs: 7 * 24 * 3600_000,
  maxTranscriptBytes: 2 << 20,
  maxConversationsPerClient: 50,
  clientBytesPerSecond: 512 << 10,
}

export type ChatCall = LiveCall<undefined>

export interface EngineContext {
  model: ChatModel
  tools: ReadonlyMap<string, AnyMcpTool>
  calls: CallRegistry<undefined>
  limits: ChatLimits
  /** Who sent this turn (for the per-client limit). */
  client: string
  /** The signed-in user who sent it (`authenticate`): the tools' `ctx.auth`, and the only one who may answer its calls. */
  caller?: CallerAuth
  /** The conversation the turn belongs to, recorded with its calls: a recovered call reports there. */
  conversationId?: string
  system?: string
  emit(event: ChatStreamEvent): void
  /**
   * Emit what a reload must show — a tool call, its question, its result — once the kept
   * conversation holds it (`messages` and the event written, then sent): a server that dies
   * after the client saw it leaves it in the store. Without a kept conversation, `emit`.
   */
  emitSaved(event: ChatStreamEvent, messages: readonly McpMessage[]): Promise<void>
  /**
   * Save the conversation so far (a conversation the client asked to keep): at the turn's start,
   * when a call asks or ends, and at its end.
   */
  checkpoint?(messages: readonly McpMessage[]): Promise<void>
  /** The kept conversation's revision as last written (sent with `conversation_state`). */
  revision?(): number | undefined
  signal: AbortSignal
  /** The turn's span (a W3C traceparent): model calls and tool calls are its children. */
  traceParent?: string
  /** Where failures' details go (the client is told a code and a sentence). */
  logger?: ErrorLog
}

const LOST = 'This tool call is no longer running (it ended, expired, or the server restarted). Please retry the operation.'

export async function runTurn(ctx: EngineContext, body: ChatRequestBody): Promise<void> {
  const conversation: McpMessage[] = body.messages.map((m) => ({ ...m, content: [...m.content] }))
  /** The turn ends with the conversation sent back (not when it only confirmed an abort, or the client left). */
  let ends = false
  const finish = () => void (ends = true)
  try {
    await ctx.checkpoint?.(conversation)
    await turn(ctx, body, conversation, finish)
  } catch (error) {
    // A model or adapter failure ends the turn, not the protocol: the client still gets the
    // conversation so far as the final event, and can send the next message.
    ctx.emit({ type: 'error', ...forClient(error, 'a chat turn failed', ctx.logger) })
    ends = true
  }
  // Also when the client left mid-turn: its calls went on, and a reload will look for them here.
  // Saved before the end is sent, so the revision the client learns is the one stored.
  let saved = true
  try {
    await ctx.checkpoint?.(conversation)
  } catch (error) {
    saved = false
    const said = forClient(error, 'a conversation could not be saved', ctx.logger)
    ctx.emit({ type: 'error', code: said.code, message: `The conversation could not be saved. ${said.message}` })
  }
  const revision = saved ? ctx.revision?.() : undefined
  if (ends) ctx.emit({ type: 'conversation_state', messages: conversation, ...(revision !== undefined && { revision }) })
}

/** Why a call cannot be answered or aborted any more, for the user and the model. */
function lostMessage(refusal: { code: string; message: string }): string {
  return refusal.code === 'FINISHED' ? `${refusal.message} Nothing was changed.` : LOST
}

async function turn(ctx: EngineContext, body: ChatRequestBody, conversation: McpMessage[], finish: () => void): Promise<void> {
  /**
   * Stop means stop: once a person cancels a call of this turn, the model is not asked to go on
   * (it would only apologise for what they chose). The call's result stays in the conversation,
   * so the model reads it with the next message.
   */
  let stopped = false
  if (body.abort) {
    const { callId, token, reason } = body.abort
    // A cancel naming another conversation is refused; one naming none is the page's out-of-band
    // Stop (sent without its conversation so it cannot overwrite what the running turn writes).
    const aborted = await ctx.calls.abort(callId, token, reason ?? STOPPED_BY_USER, {
      ...(ctx.caller && { caller: ctx.caller }),
      ...(ctx.conversationId !== undefined && { conversation: ctx.conversationId }),
    })
    if (!aborted.ok) {
      if (aborted.code === 'NOT_FOUND' || aborted.code === 'FINISHED') ctx.emit({ type: 'call_not_found', callId, message: lostMessage(aborted) })
      else ctx.emit({ type: 'error', code: aborted.code, message: aborted.message })
    } else if (aborted.wasRunning) {
      // The response that runs it sees it end (its `finally` has run) and reports it there.
      return ctx.emit({ type: 'call_aborted', callId })
    } else {
      // It was waiting: no response is reading it, so this one reports its end.
      const { result, event } = callEnd(callId, aborted.toolName, {
        status: 'aborted',
        reason: reason ?? STOPPED_BY_USER,
        cancelled: true,
        ...(aborted.completed && { completed: aborted.completed }),
      })
      addToolResult(conversation, callId, result)
      ctx.emit(event)
      stopped = true
    }
  }

  for (const response of body.elicitResponses ?? []) {
    const refuse = (code: string, message: string, issues?: Array<{ path: string; message: string }>, current?: ElicitRequest) =>
      ctx.emit({
        type: 'elicit_refused',
        callId: response.callId,
        elicitId: response.elicitId,
        code,
        message,
        ...(issues && { issues }),
        ...(current && { current: encodeElicitRequest(current) }),
      })
    const resumed = await ctx.calls.resume(response.callId, {
      token: response.token,
      ...(ctx.caller && { caller: ctx.caller }),
      conversation: ctx.conversationId ?? null,
      ...(ctx.traceParent !== undefined && { traceParent: ctx.traceParent }),
      replay: (record) => {
        const tool = ctx.tools.get(record.tool)
        return tool && { tool, sampling: modelSampling(ctx.model), extra: undefined }
      },
    })
    if (!resumed.ok) {
      if (resumed.code === 'NOT_FOUND' || resumed.code === 'FINISHED') {
        const message = lostMessage(resumed)
        ctx.emit({ type: 'call_not_found', callId: response.callId, message })
        addToolResult(conversation, response.callId, chatResult(response.callId, errorResult(`Error: ${message}`)))
      } else refuse(resumed.code, resumed.message)
      continue
    }
    const { call } = resumed
    if (resumed.replayed) {
      // Replay the journal up to the question the record says the call waits for.
      const stop = await runToStop(call, driveToStop(call, { ...chatStops(ctx), replayingTo: resumed.record.pending?.id ?? '' }))
      if (stop.kind === 'done') {
        await report(ctx, conversation, call, stop.outcome)
        continue
      }
    }
    const asked = call.host.pending()
    const outcome = call.host.respond({ id: response.elicitId, result: response.result })
    if (!outcome.ok) {
      // An answer to an earlier question carries the one the call waits on now.
      refuse(outcome.code, outcome.message, outcome.issues, outcome.code === 'ID_MISMATCH' ? (asked ?? undefined) : undefined)
      await parkOrEnd(ctx, conversation, call, resumed.record.pending!)
      continue
    }
    if (asked) {
      const { action } = response.result
      // What the person chose, by its title where the key's plain form names its choices.
      const summary = response.result.action === 'accept' ? summarizeAnswer(withChoices(asked.schema.json, asked.plain?.choices, false), response.result.content) : ''
      ctx.emit({ type: 'elicit_answered', callId: call.callId, elicitId: response.elicitId, key: asked.key, action, summary })
    }
    await settle(ctx, conversation, call)
  }

  const waiting = waitingToolUses(conversation)
  if (waiting.length > 0) {
    // The rule for a message sent while a question is open: it is not taken (the model cannot be
    // called over an unanswered tool call), and the client is told so — never silence.
    const last = conversation[conversation.length - 1]
    if (last?.role === 'user' && last.content.some((b) => b.type === 'text')) {
      conversation.pop()
      ctx.emit({
        type: 'error',
        code: 'QUESTION_PENDING',
        message: `A tool call is waiting for your answer (${waiting.join(', ')}); answer or cancel it before sending a new message.`,
      })
    }
    return finish()
  }

  for (let step = 0; step < ctx.limits.maxSteps; step++) {
    if (ctx.signal.aborted) return
    const last = conversation[conversation.length - 1]
    // Nothing new to answer (e.g. a request that only aborted a call, with no user message).
    if ((step === 0 && last?.role === 'assistant') || stopped) return finish()
    const toolUses = await callModel(ctx, conversation)
    if (toolUses.length === 0 || ctx.signal.aborted) return finish()
    for (const use of toolUses) {
      // The client left: start nothing it could never answer or cancel.
      if (ctx.signal.aborted) return finish()
      const outcome = await startTool(ctx, conversation, use)
      if (outcome?.status === 'aborted' && outcome.cancelled) stopped = true
    }
    if (waitingToolUses(conversation).length > 0) return finish()
  }
  ctx.emit({ type: 'error', code: 'MAX_STEPS', message: `Stopped after ${ctx.limits.maxSteps} model calls in one request.` })
  finish()
}

async function callModel(ctx: EngineContext, conversation: McpMessage[]): Promise<ToolUseContent[]> {
  const tools = [...ctx.tools.values()].map((t) => ({
    name: t.name,
    ...(t.description !== undefined && { description: t.description }),
    inputSchema: t.jsonSchema.parameters,
  }))
  let text = ''
  const toolUses: ToolUseContent[] = []
  // A GenAI client span per model call; what was said stays out of it.
  const span = startSpan(`chat ${ctx.model.id}`, {
    kind: 'client',
    attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': ctx.model.id },
    ...(ctx.traceParent !== undefined && { parent: ctx.traceParent }),
  })
  try {
    for await (const part of ctx.model.stream({ ...(ctx.system && { system: ctx.system }), messages: conversation, tools }, ctx.signal)) {
      if (part.type === 'text-delta') {
        text += part.text
        ctx.emit({ type: 'text_delta', text: part.text })
      } else if (part.type === 'tool-call') {
        toolUses.push({ type: 'tool_use', id: part.id, name: part.name, input: part.input })
      } else if (part.type === 'finish') {
        span.set({ 'gen_ai.response.finish_reasons': part.reason })
      }
    }
  } catch (error) {
    span.fail(error)
    throw error
  } finally {
    span.end()
  }
  conversation.push({ role: 'assistant', content: [...(text ? [{ type: 'text' as const, text }] : []), ...toolUses] })
  return toolUses
}

/** Start the model's tool call and carry it to its question or its end (how it ended, if it did). */
async function startTool(ctx: EngineContext, conversation: McpMessage[], use: ToolUseContent): Promise<BridgeOutcome<unknown> | undefined> {
  const tool = ctx.tools.get(use.name)
  const refuse = (message: string) => {
    ctx.emit({ type: 'tool_call', callId: use.id, toolName: use.name, params: use.input })
    addToolResult(conversation, use.id, chatResult(use.id, errorResult(message)))
    ctx.emit({ type: 'tool_result', callId: use.id, toolName: use.name, result: message, isError: true })
    return undefined
  }
  if (!tool) return refuse(`Unknown tool "${use.name}". Available: ${[...ctx.tools.keys()].join(', ') || 'none'}.`)
  let call: ChatCall & { token: string }
  try {
    call = await ctx.calls.start({
      tool,
      params: use.input,
      callId: use.id,
      sampling: modelSampling(ctx.model),
      client: ctx.client,
      ...(ctx.caller && { auth: ctx.caller }),
      ...(ctx.traceParent !== undefined && { traceParent: ctx.traceParent }),
      ...(ctx.conversationId !== undefined && { origin: { conversation: ctx.conversationId } satisfies ChatOrigin }),
      // Its card is shown before it stops: its record must exist first, or a crash leaves a card no server knows.
      recordAtStart: true,
      extra: undefined,
    })
  } catch (error) {
    return refuse(forClient(error, `tool call ${use.id} (${use.name}) could not start`, ctx.logger).message)
  }
  // A reload while it runs finds its card (and its token, to cancel it).
  await ctx.emitSaved(
    { type: 'tool_call', callId: use.id, toolName: use.name, ...(tool.title !== undefined && { title: tool.title }), params: use.input, token: call.token },
    conversation,
  )
  return settle(ctx, conversation, call)
}

/** What a chat call records for its recovery: the conversation it reports to. */
export interface ChatOrigin {
  conversation: string
}

/** How the chat asks a question: its wire form (`elicit_request`), stored with the call. */
function chatStops(ctx: EngineContext): DriveOptions<undefined, ElicitRequestWire> {
  return {
    calls: ctx.calls,
    maxContextBytes: ctx.limits.maxContextBytes,
    surface: browserQuestions,
  }
}

/**
 * Run a call to its next stop, forwarding its logs and progress: a question (stored before it is
 * announced: the answer may reach another instance) or the end (its result joins the conversation).
 */
export async function settle(ctx: EngineContext, conversation: McpMessage[], call: ChatCall): Promise<BridgeOutcome<unknown> | undefined> {
  const stop = await runToStop(call, driveToStop(call, chatStops(ctx)), (event) => ctx.emit(reportEvent(call, event)))
  if (stop.kind === 'question') {
    // Parked (the record asks it) and then saved in the conversation, before the person sees it.
    await ctx.emitSaved({ type: 'elicit_request', callId: call.callId, toolName: call.toolName, request: stop.question.wire }, conversation)
    return undefined
  }
  if (stop.unsaved) unsaved(ctx, call, stop.unsaved)
  await report(ctx, conversation, call, stop.outcome)
  return stop.outcome
}

/** A question the store did not take was not shown: the person is told why the call ended (the store's words go to the log). */
function unsaved(ctx: EngineContext, call: ChatCall, error: unknown): void {
  const said = forClient(error, `the question of ${call.toolName} (${call.callId}) could not be saved`, ctx.logger)
  ctx.emit({ type: 'error', code: said.code, message: `${call.toolName} could not go on: its question could not be saved. ${said.message}` })
}

/**
 * Park the call again on the question it waits on (an answer was refused). When the store does
 * not take it, the call has ended: the person is told why, and the model gets the tool's error.
 */
async function parkOrEnd(ctx: EngineContext, conversation: McpMessage[], call: ChatCall, question: StoredQuestion): Promise<void> {
  try {
    await ctx.calls.park(call, question)
  } catch (error) {
    unsaved(ctx, call, error)
    await report(ctx, conversation, call, await call.host.outcome)
  }
}

/** A call's end joins the conversation and reaches the client. */
async function report(ctx: EngineContext, conversation: McpMessage[], call: ChatCall, outcome: BridgeOutcome<unknown>): Promise<void> {
  await ctx.calls.settled(call)
  const { result, event } = callEnd(call.callId, call.toolName, outcome)
  addToolResult(conversation, call.callId, result)
  // Its end is stored (settled) and then saved in the conversation, before the person sees it.
  await ctx.emitSaved(event, conversation)
}

/** A log line or progress report of a call, as the chat streams it. */
function reportEvent(call: ChatCall, event: CallReport): ChatStreamEvent {
  if (event.type === 'log') return { type: 'tool_log', callId: call.callId, level: event.level, message: event.message }
  return {
    type: 'tool_progress',
    callId: call.callId,
    message: event.message,
    ...(event.progress !== undefined && { progress: event.progress }),
    ...(event.total !== undefined && { total: event.total }),
  }
}

/** tool_use ids of the last assistant message that have no result yet. */
function waitingToolUses(conversation: McpMessage[]): string[] {
  const index = conversation.findLastIndex((m) => m.role === 'assistant')
  if (index === -1) return []
  const uses = conversation[index]!.content.filter((b): b is ToolUseContent => b.type === 'tool_use').map((b) => b.id)
  const answered = new Set((conversation[index + 1]?.content ?? []).filter((b): b is ToolResultContent => b.type === 'tool_result').map((b) => b.toolUseId))
  return uses.filter((id) => !answered.has(id))
}
