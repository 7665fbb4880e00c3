/**
 * One chat turn: what happens between receiving a request body and the end of its response.
 *
 *   1. `pluginAbort` first: abort that session; its tool answers with an error.
 *   2. `pluginElicitResponses`: check each token, resume the session, and wait until it asks
 *      again (the response ends there) or finishes (its result joins the conversation). A
 *      session that no longer exists becomes `plugin_session_error` plus a synthetic tool error,
 *      so the model can recover (seed 001).
 *   3. The model loop: stream text; run each tool call as a session; when every tool_use of the
 *      last assistant message has its tool_result, call the model again; stop when it answers
 *      without tools, or when a tool waits for the user.
 *
 * This orchestration sits at the HTTP edge and is written with async/await; the tools
 * themselves run as Effection operations inside their bridge hosts.
 */
import { ToolParamsError } from '../bridge/errors.ts'
import type { BridgeOutcome } from '../bridge/create-bridge-host.ts'
import { formatElicitId } from '../tool/elicit-request.ts'
import type { ElicitRequest } from '../tool/elicit-request.ts'
import type { McpMessage, ToolResultContent, ToolUseContent } from '../sampling/content.ts'
import { isPlainObject } from '../schema/json-schema.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'
import { SessionLimitError, type PluginSession, type PluginSessionManager } from '../session/plugin-session-manager.ts'
import type { ChatModel } from './model.ts'
import { modelSampling } from './model-sampling.ts'
import type { ChatRequestBody, ChatStreamEvent } from './protocol.ts'

export interface ChatLimits {
  /** Largest request body accepted (default 1 MiB). */
  maxBodyBytes: number
  /** Largest context data of one elicitation (default 256 KiB). */
  maxContextBytes: number
  /** Model calls per request, so a tool loop cannot run forever (default 8). */
  maxSteps: number
}

export const DEFAULT_LIMITS: ChatLimits = { maxBodyBytes: 1 << 20, maxContextBytes: 256 << 10, maxSteps: 8 }

export interface EngineContext {
  model: ChatModel
  tools: ReadonlyMap<string, AnyMcpTool>
  sessions: PluginSessionManager
  limits: ChatLimits
  system?: string
  emit(event: ChatStreamEvent): void
  signal: AbortSignal
}

type SessionStep = { kind: 'waiting'; request: ElicitRequest } | { kind: 'done'; outcome: BridgeOutcome<unknown> }

export async function runTurn(ctx: EngineContext, body: ChatRequestBody): Promise<void> {
  const conversation: McpMessage[] = body.messages.map((m) => ({ ...m, content: [...m.content] }))
  const finish = () => ctx.emit({ type: 'conversation_state', messages: conversation })

  if (body.pluginAbort) {
    const { sessionId, reason } = body.pluginAbort
    const session = ctx.sessions.get(sessionId)
    if (session) await ctx.sessions.abort(sessionId, reason ?? 'cancelled by the user')
    addToolResult(conversation, sessionId, errorResult(sessionId, `The user cancelled this tool call${reason ? ` (${reason})` : ''}.`))
    ctx.emit({ type: 'tool_result', callId: sessionId, toolName: session?.toolName ?? 'unknown', result: 'cancelled by the user', isError: true })
  }

  for (const response of body.pluginElicitResponses ?? []) {
    const session = ctx.sessions.get(response.sessionId)
    if (!session) {
      const message = 'Plugin session was lost. Please retry the operation.'
      ctx.emit({ type: 'plugin_session_error', sessionId: response.sessionId, callId: response.callId, error: 'SESSION_NOT_FOUND', message })
      addToolResult(conversation, response.callId, errorResult(response.callId, `Error: ${message}`))
      continue
    }
    const pending = session.host.pending()
    const refuse = (code: string, message: string, issues?: Array<{ path: string; message: string }>) =>
      ctx.emit({ type: 'plugin_elicit_refused', sessionId: session.id, elicitId: response.elicitId, code, message, ...(issues && { issues }) })
    if (!ctx.sessions.verifyToken(session, response.token)) {
      refuse('WRONG_TOKEN', 'This answer does not carry the token issued with the request; nothing was resumed.')
      continue
    }
    if (!pending || formatElicitId(pending.id) !== response.elicitId) {
      refuse('STALE_ELICITATION', `Tool call ${session.callId} is not waiting for ${response.elicitId}${pending ? ` (it waits for ${formatElicitId(pending.id)})` : ''}.`)
      continue
    }
    const outcome = session.host.respond({ id: pending.id, result: response.result })
    if (!outcome.ok) {
      refuse(outcome.code, outcome.message, outcome.issues)
      continue
    }
    ctx.sessions.touch(session)
    await settle(ctx, conversation, session)
  }

  if (waitingToolUses(conversation).length > 0) return finish()

  for (let step = 0; step < ctx.limits.maxSteps; step++) {
    if (ctx.signal.aborted) return
    const last = conversation[conversation.length - 1]
    // Nothing new to answer (e.g. a request that only aborted a session with no user message).
    if (step === 0 && last?.role === 'assistant') return finish()
    const toolUses = await callModel(ctx, conversation)
    if (toolUses.length === 0) return finish()
    for (const use of toolUses) await startTool(ctx, conversation, use)
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
  for await (const part of ctx.model.stream({ ...(ctx.system && { system: ctx.system }), messages: conversation, tools }, ctx.signal)) {
    if (part.type === 'text-delta') {
      text += part.text
      ctx.emit({ type: 'text_delta', text: part.text })
    } else if (part.type === 'tool-call') {
      toolUses.push({ type: 'tool_use', id: part.id, name: part.name, input: part.input })
    }
  }
  conversation.push({ role: 'assistant', content: [...(text ? [{ type: 'text' as const, text }] : []), ...toolUses] })
  return toolUses
}

async function startTool(ctx: EngineContext, conversation: McpMessage[], use: ToolUseContent): Promise<void> {
  ctx.emit({ type: 'tool_call', callId: use.id, toolName: use.name, params: use.input })
  const tool = ctx.tools.get(use.name)
  if (!tool) {
    const message = `Unknown tool "${use.name}". Available: ${[...ctx.tools.keys()].join(', ') || 'none'}.`
    addToolResult(conversation, use.id, errorResult(use.id, message))
    ctx.emit({ type: 'tool_result', callId: use.id, toolName: use.name, result: message, isError: true })
    return
  }
  let session: PluginSession
  try {
    session = ctx.sessions.create({ tool, params: use.input, callId: use.id, sampling: modelSampling(ctx.model) })
  } catch (error) {
    const message = error instanceof SessionLimitError ? error.message : `Could not start ${use.name}: ${(error as Error).message}`
    addToolResult(conversation, use.id, errorResult(use.id, message))
    ctx.emit({ type: 'tool_result', callId: use.id, toolName: use.name, result: message, isError: true })
    return
  }
  await settle(ctx, conversation, session)
}

/** Run a session to its next stop: an elicitation (announce it) or the end (record its result). */
async function settle(ctx: EngineContext, conversation: McpMessage[], session: PluginSession): Promise<void> {
  const step = await nextStep(ctx, session)
  if (step.kind === 'waiting') {
    const request = step.request
    const size = Buffer.byteLength(JSON.stringify(request.context))
    if (size > ctx.limits.maxContextBytes) {
      await session.host.abort(`context of "${request.key}" is ${size} bytes (limit ${ctx.limits.maxContextBytes})`)
      return settle(ctx, conversation, session)
    }
    ctx.emit({
      type: 'plugin_elicit_request',
      sessionId: session.id,
      callId: session.callId,
      toolName: session.toolName,
      elicitId: formatElicitId(request.id),
      key: request.key,
      seq: request.seq,
      message: request.message,
      schema: request.schema.json,
      context: request.context,
      token: session.token,
    })
    return
  }
  const result = toolResultOf(session.callId, step.outcome)
  addToolResult(conversation, session.callId, result)
  ctx.emit({
    type: 'tool_result',
    callId: session.callId,
    toolName: session.toolName,
    result: step.outcome.status === 'completed' ? step.outcome.result : result.content.map((c) => (c.type === 'text' ? c.text : '')).join(''),
    ...(result.isError && { isError: true }),
  })
}

/** Forward the session's new logs and progress until it waits or ends. */
async function nextStep(ctx: EngineContext, session: PluginSession): Promise<SessionStep> {
  for await (const event of session.host.subscribe(session.cursor)) {
    session.cursor += 1
    if (event.type === 'log') ctx.emit({ type: 'tool_log', callId: session.callId, level: event.level, message: event.message })
    else if (event.type === 'notify') {
      ctx.emit({
        type: 'tool_progress',
        callId: session.callId,
        message: event.message,
        ...(event.progress !== undefined && { progress: event.progress }),
        ...(event.total !== undefined && { total: event.total }),
      })
    } else if (event.type === 'elicit' && session.host.pending() === event.request) {
      ctx.sessions.touch(session)
      return { kind: 'waiting', request: event.request }
    }
  }
  return { kind: 'done', outcome: await session.host.outcome }
}

function toolResultOf(callId: string, outcome: BridgeOutcome<unknown>): ToolResultContent {
  if (outcome.status === 'completed') {
    const value = outcome.result
    return {
      type: 'tool_result',
      toolUseId: callId,
      content: [{ type: 'text', text: typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null') }],
      ...(isPlainObject(value) && { structuredContent: value }),
    }
  }
  if (outcome.status === 'aborted') return errorResult(callId, `The tool call was aborted: ${outcome.reason}`)
  const error = outcome.error
  const message = error instanceof ToolParamsError ? error.message : `The tool failed: ${error.message}`
  return errorResult(callId, message)
}

function errorResult(callId: string, message: string): ToolResultContent {
  return { type: 'tool_result', toolUseId: callId, content: [{ type: 'text', text: message }], isError: true }
}

/**
 * Tool results for the last assistant message go into the user message right after it
 * (MCP: a tool_use must be followed by a user message of only tool_results). A result for a
 * call that is not in the last assistant message (a lost session from an older turn) is
 * added as its own message so the model still learns about it.
 */
function addToolResult(conversation: McpMessage[], callId: string, result: ToolResultContent): void {
  const assistantIndex = conversation.findLastIndex((m) => m.role === 'assistant')
  const assistant = conversation[assistantIndex]
  const belongs = assistant?.content.some((b) => b.type === 'tool_use' && b.id === callId)
  if (!belongs) {
    conversation.push({ role: 'user', content: [result] })
    return
  }
  let holder = conversation[assistantIndex + 1]
  if (!holder || holder.role !== 'user' || !holder.content.every((b) => b.type === 'tool_result')) {
    holder = { role: 'user', content: [] }
    conversation.splice(assistantIndex + 1, 0, holder)
  }
  holder.content = [...holder.content.filter((b) => !(b.type === 'tool_result' && b.toolUseId === callId)), result]
}

/** tool_use ids of the last assistant message that have no result yet. */
function waitingToolUses(conversation: McpMessage[]): string[] {
  const index = conversation.findLastIndex((m) => m.role === 'assistant')
  if (index === -1) return []
  const uses = conversation[index]!.content.filter((b): b is ToolUseContent => b.type === 'tool_use').map((b) => b.id)
  const answered = new Set(
    (conversation[index + 1]?.content ?? []).filter((b): b is ToolResultContent => b.type === 'tool_result').map((b) => b.toolUseId),
  )
  return uses.filter((id) => !answered.has(id))
}
