/**
 * `createAiSdkBridge({ tools })`: mcp-bridge tools in an AI SDK app (`streamText`, `useChat`).
 *
 *   - `turn.tools` is a ToolSet for `streamText`: each tool starts a durable call (the same call
 *     registry and stores as the chat handler); logs and progress stream as preliminary outputs;
 *     a question ends the tool's step with an `input-required` output, stored first.
 *   - `bridge.waitingForUser` is a `stopWhen` condition: the loop stops there, so the model is
 *     not called over a question nobody answered yet.
 *   - The browser answers with `addToolOutput` (an `answered` output over the question) and sends
 *     the messages again; `bridge.prepare` finds the answer in the last assistant message, checks
 *     its token, validates it with the key's zod schema, resumes the call (on any instance) and
 *     writes the part's new output into the response. Once every call of the message is done,
 *     the model goes on with the results, as after any tool.
 */
import { forClient } from '../errors/client-errors.ts'
import { CALL_LIMITS, callLimitsShape, type CallLimits } from '../calls/call-limits.ts'
import { randomUUID } from 'node:crypto'
import { z } from 'zod/v4'
import { functionOption } from '../schema/function-option.ts'
import { CallRegistry } from '../calls/call-registry.ts'
import type { LiveCall } from '../calls/live-call.ts'
import { callStoreOption } from '../calls/stores/store-option.ts'
import type { CallStore } from '../calls/stores/call-store.ts'
import { createMemoryStore } from '../calls/stores/memory-store.ts'
import { createAiSdkModel } from '../chat/ai-sdk-model.ts'
import type { AiSdkLanguageModel } from '../chat/ai-sdk-spec.ts'
import { modelSampling } from '../chat/model-sampling.ts'
import { summarizeIssues } from '../errors/issues.ts'
import { OptionsError } from '../errors/options-error.ts'
import { STOPPED_BY_USER } from '../protocol/chat-wire.ts'
import { collectTools } from '../plugin/collect-tools.ts'
import type { McpPlugin } from '../plugin/types.ts'
import type { SamplingProvider } from '../sampling/provider.ts'
import { summarizeAnswer } from '../schema/field-labels.ts'
import { consoleLogger, loggerOption, withTraceIds, type McpBridgeLogger } from '../telemetry/logger.ts'
import { clockOption, systemClock, type Clock } from '../time/clock.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'
import { withChoices } from '../tool/plain-form.ts'
import { aiSdkInputSchema, toolNameOf, type AiSdkToolLike, type StepsLike, type UiMessageLike, type UiPartLike, type UiStreamWriterLike } from '../protocol/ai-sdk-shapes.ts'
import { doneOutput, endedOutput, outputsToStop, type CallCard, type DriveContext } from './call-outputs.ts'
import { callerOf, type Authenticate, type CallerAuth } from '../tool/caller-auth.ts'
import { modelView, readToolOutput, type AnsweredOutput, type McpBridgeToolOutput } from '../protocol/ai-sdk-output.ts'

/** The bounds of an AI SDK bridge (`createAiSdkBridge({ limits })`): the limits of every surface's calls. */
export type AiSdkBridgeLimits = CallLimits

/**
 * What `createAiSdkBridge` takes: the tools (the generated `serverTools`), the model for `ctx.sample`, a call store, limits, a logger and a clock.
 */
export interface AiSdkBridgeOptions<T extends AnyMcpTool | McpPlugin = AnyMcpTool | McpPlugin> {
  /** The generated `serverTools` (or tools and plugins). */
  tools: ReadonlyArray<T>
  /**
   * The app's AI SDK language model (`openai('gpt-4o-mini')`, a `MockLanguageModelV4`), for the
   * tools' `ctx.sample`. Without it a tool that samples fails with a clear error.
   */
  model?: AiSdkLanguageModel
  /** Where calls are kept (default: memory). `createSqliteStore` for one server, `createRedisStore` for several. */
  store?: CallStore
  /**
   * Who is signed in, from the app's session (a cookie, a header), read from `prepare`'s
   * `request`: `{ subject, scopes?, extra? }`, or `undefined` for nobody. Tools read it as
   * `ctx.auth`; a call a signed-in user started is theirs alone (another user's answer or cancel
   * is refused, even with the call's token). Throwing refuses the request (`UNAUTHENTICATED`).
   */
  authenticate?: Authenticate
  limits?: Partial<AiSdkBridgeLimits>
  /** Where the server's own messages go (pino's signature). Default: the console. */
  logger?: McpBridgeLogger
  /** What idle times and leases are measured with (tests: `createTestClock()`). */
  clock?: Clock
}

/**
 * What `bridge.prepare` takes: the request's UI messages, the stream writer, and who sent it.
 */
export interface PrepareOptions<M extends UiMessageLike = UiMessageLike> {
  /** The `messages` of the request body, as useChat sent them. */
  messages: readonly M[]
  /** `createUIMessageStream`'s writer: the parts' new outputs go into the response through it. */
  writer: UiStreamWriterLike
  /** Who sent it, for `limits.maxCallsPerClient` (a session or user id). Without it each call counts apart. */
  client?: string
  /** The route's request: with `authenticate`, who sent it (required then). */
  request?: Request
}

/** The ToolSet `streamText` takes, by tool name. */
export type AiSdkTools<T extends AnyMcpTool | McpPlugin> = { [K in ToolNameOf<T>]: AiSdkToolLike }
type ToolNameOf<T> = T extends { name: infer N extends string } ? N : T extends { tool: { name: infer N extends string } } ? N : string

/**
 * What `bridge.prepare` gives back for one request: whether to call the model, the messages for `convertToModelMessages`, and the tools for `streamText`.
 */
export interface PreparedTurn<T extends AnyMcpTool | McpPlugin, M extends UiMessageLike = UiMessageLike> {
  /**
   * False while a question of the last assistant message is open (just asked again, or refused),
   * and when the person just stopped one of its calls (stop means stop: the model reads the
   * cancel with the next message): end the response without calling the model.
   */
  callModel: boolean
  /** The messages with each tool's output as the model reads it (no tokens): for `convertToModelMessages`. */
  messages: M[]
  /** The tools for `streamText`, bound to this request's client. */
  tools: AiSdkTools<T>
}

/**
 * The bridge between the app's tools and the AI SDK (`createAiSdkBridge`): `prepare` a request's answers, the tools for `streamText`, `waitingForUser` for `stopWhen`.
 */
export interface AiSdkBridge<T extends AnyMcpTool | McpPlugin = AnyMcpTool | McpPlugin> {
  /** Apply the answers and cancellations the browser put in the last assistant message; see `PreparedTurn`. */
  prepare<M extends UiMessageLike>(options: PrepareOptions<M>): Promise<PreparedTurn<T, M>>
  /** The tools for `streamText` without an answer to apply (e.g. a `ToolLoopAgent`). */
  tools(options?: { client?: string }): AiSdkTools<T>
  /** For `stopWhen`: true when a tool of the last step waits for the user. */
  readonly waitingForUser: (options: StepsLike) => boolean
  /** The calls this bridge holds. */
  readonly calls: CallRegistry<undefined>
  /** Abort every call (server shutdown); their `finally` blocks run. */
  close(): Promise<void>
}

const optionsSchema = z
  .object({
    tools: z.unknown(),
    model: z
      .custom<AiSdkLanguageModel>((m) => typeof (m as AiSdkLanguageModel | undefined)?.doStream === 'function', {
        message: 'takes an AI SDK language model object (specification v3 or v4), e.g. openai("gpt-4o-mini") — not a model id string',
      })
      .optional(),
    store: callStoreOption.optional(),
    limits: z.object(callLimitsShape).partial().strict().optional(),
    logger: loggerOption.optional(),
    clock: clockOption.optional(),
    authenticate: functionOption().optional(),
  })
  .strict()

const prepareSchema = z.object({
  messages: z.array(z.object({ id: z.string(), role: z.enum(['system', 'user', 'assistant']), parts: z.array(z.object({ type: z.string() }).loose()) }).loose()),
  writer: z.custom<UiStreamWriterLike>((w) => typeof (w as UiStreamWriterLike | undefined)?.write === 'function', {
    message: "takes createUIMessageStream's writer ({ execute: ({ writer }) => ... })",
  }),
  client: z.string().min(1).max(500).optional(),
  request: z.custom<Request>((r) => r instanceof Request, { message: "takes the route's Request (what `authenticate` reads)" }).optional(),
})

const LOST = 'This tool call is no longer running (it ended, expired, or the server restarted). Please retry the operation.'

/**
 * mcp-bridge tools for an AI SDK chat route: their questions park in the call store and are
 * answered from `useChat` (see `useMcpBridge`).
 *
 * @example
 * ```ts
 * import { convertToModelMessages, createUIMessageStream, createUIMessageStreamResponse, stepCountIs, streamText, type UIMessage } from 'ai'
 * import { openai } from '@ai-sdk/openai'
 * import { createAiSdkBridge } from '@mcp-bridge/runtime/ai-sdk'
 * import { serverTools } from './mcp-bridge/server.gen.ts'
 *
 * const model = openai('gpt-4o-mini')
 * const bridge = createAiSdkBridge({ tools: serverTools, model })
 *
 * export async function POST(request: Request): Promise<Response> {
 *   const { messages } = (await request.json()) as { messages: UIMessage[] }
 *   const stream = createUIMessageStream({
 *     async execute({ writer }) {
 *       const turn = await bridge.prepare({ messages, writer })
 *       if (!turn.callModel) return
 *       const result = streamText({ model, messages: await convertToModelMessages(turn.messages), tools: turn.tools, stopWhen: [stepCountIs(5), bridge.waitingForUser] })
 *       writer.merge(result.toUIMessageStream())
 *     },
 *   })
 *   return createUIMessageStreamResponse({ stream })
 * }
 * ```
 */
export function createAiSdkBridge<const T extends AnyMcpTool | McpPlugin>(options: AiSdkBridgeOptions<T>): AiSdkBridge<T> {
  const checked = optionsSchema.safeParse(options ?? {})
  if (!checked.success) throw new OptionsError('createAiSdkBridge', summarizeIssues(checked.error.issues))
  const tools = collectTools(options.tools, 'createAiSdkBridge({ tools })')
  const limits: AiSdkBridgeLimits = { ...CALL_LIMITS, ...(checked.data.limits as Partial<AiSdkBridgeLimits> | undefined) }
  const logger = withTraceIds(options.logger ?? consoleLogger)
  const clock = options.clock ?? systemClock
  const sampling: SamplingProvider | undefined = options.model ? modelSampling(createAiSdkModel(options.model)) : undefined
  const spec = (tool: AnyMcpTool) => ({ tool, ...(sampling && { sampling }), extra: undefined })

  const calls: CallRegistry<undefined> = new CallRegistry<undefined>({
    limits,
    surface: 'ai-sdk',
    store: options.store ?? createMemoryStore({ clock }),
    clock,
    logger,
    // A call whose server stopped while it ran goes on here to its next stop (its question is
    // stored, so the part's next request finds it; or its end).
    recover: (record) => {
      const tool = tools.get(record.tool)
      if (!tool) return undefined
      return {
        spec: spec(tool),
        async drive(call) {
          const run = outputsToStop(drive, call, { callId: call.callId, token: '' })
          while (!(await run.next()).done);
        },
      }
    },
  })
  const drive: DriveContext = { calls, maxContextBytes: limits.maxContextBytes, logger }

  /**
   * Without a client key each call counts as its own client: one shared key would let any one
   * person's calls use up everybody's share (only `limits.maxActiveCalls` bounds them then).
   */
  function toolSet(client: string | undefined, caller: CallerAuth | undefined): AiSdkTools<T> {
    const set: Record<string, AiSdkToolLike> = {}
    for (const tool of tools.values()) {
      set[tool.name] = {
        ...(tool.description !== undefined && { description: tool.description }),
        ...(tool.title !== undefined && { title: tool.title }),
        inputSchema: aiSdkInputSchema(tool.jsonSchema.parameters as Record<string, unknown>),
        execute: (input, { toolCallId, abortSignal }) => runTool(tool, input, toolCallId, client ?? `call:${randomUUID()}`, caller, abortSignal),
        // The model reads the result, never the call's token.
        toModelOutput: ({ output }) => {
          const ours = readToolOutput(output)
          const value = ours ? modelView(ours) : output
          return typeof value === 'string' ? { type: 'text', value } : { type: 'json', value: (value ?? null) as never }
        },
      }
    }
    return set as AiSdkTools<T>
  }

  async function* runTool(
    tool: AnyMcpTool,
    input: unknown,
    toolCallId: string,
    client: string,
    caller: CallerAuth | undefined,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<McpBridgeToolOutput> {
    let call: LiveCall<undefined> & { token: string }
    try {
      // Its part shows it running before it stops: recorded first, as the chat's card is.
      call = await calls.start({
        ...spec(tool),
        params: input,
        callId: randomUUID(),
        client,
        ...(caller && { auth: caller }),
        origin: { aiSdkToolCallId: toolCallId },
        recordAtStart: true,
      })
    } catch (error) {
      // A refusal (a limit: its own words) or a store that did not answer (a sentence; the details
      // to the log): the model reads why, as after any failed tool.
      yield endedOutput({ callId: toolCallId, token: 'none' }, forClient(error, `tool call ${toolCallId} (${tool.name}) could not start`, logger).message)
      return
    }
    // Stop (the request ends) halts a call still running: nobody would see where it went.
    const stop = () => void call.host.abort('the response was stopped')
    signal?.addEventListener('abort', stop, { once: true })
    try {
      const run = outputsToStop(drive, call, { callId: call.callId, token: call.token })
      for (let step = await run.next(); ; step = await run.next()) {
        yield step.value
        if (step.done) return
      }
    } finally {
      signal?.removeEventListener('abort', stop)
    }
  }

  async function prepare<M extends UiMessageLike>(given: PrepareOptions<M>): Promise<PreparedTurn<T, M>> {
    const parsed = prepareSchema.safeParse(given ?? {})
    if (!parsed.success) throw new OptionsError('bridge.prepare', summarizeIssues(parsed.error.issues))
    const { writer } = given
    const { client } = given
    if (options.authenticate && !given.request) {
      throw new OptionsError('bridge.prepare', {
        option: 'request',
        problem: "`request` is required with createAiSdkBridge({ authenticate }): pass the route's Request, so calls are bound to who is signed in",
      })
    }
    const caller = given.request ? await callerOf(options.authenticate, given.request) : undefined
    const messages = given.messages.map((m) => ({ ...m, parts: [...m.parts] }) as M)
    const lastIndex = messages.length - 1
    const last = messages[lastIndex]
    let open = 0
    let openElsewhere = false
    let stopped = false
    for (const [index, message] of messages.entries()) {
      if (message.role !== 'assistant') continue
      for (const [at, part] of message.parts.entries()) {
        const name = toolNameOf(part)
        const output = name !== undefined && tools.has(name) ? readToolOutput(part.output) : undefined
        if (!output) continue
        let now = output
        if (index === lastIndex && (output.status === 'answered' || output.status === 'cancel-requested')) {
          now = output.status === 'answered' ? await answer(output, part, writer, caller) : await cancel(output, caller)
          writer.write({ type: 'tool-output-available', toolCallId: part.toolCallId!, output: now })
          if (now.status === 'done' && now.cancelled) stopped = true
        }
        if (now.status === 'input-required' || now.status === 'answered' || now.status === 'cancel-requested') {
          if (index === lastIndex) open++
          else openElsewhere = true
        }
        message.parts[at] = { ...part, output: modelView(now) }
      }
    }
    if (openElsewhere && last?.role === 'user') {
      // As in mcp-bridge's own chat: the model cannot be called over an unanswered tool call.
      writer.write({ type: 'error', errorText: 'A tool call is waiting for your answer; answer or cancel it before sending a new message.' })
      return { callModel: false, messages, tools: toolSet(client, caller) }
    }
    return { callModel: open === 0 && !stopped, messages, tools: toolSet(client, caller) }
  }

  /** An answer from the browser: checked, validated by the key's schema, and the call resumed to its next stop. */
  async function answer(output: AnsweredOutput, part: UiPartLike, writer: UiStreamWriterLike, caller: CallerAuth | undefined): Promise<McpBridgeToolOutput> {
    const card: CallCard = { callId: output.callId, token: output.token, ...(output.answers && { answers: output.answers }) }
    const question = {
      mcpBridge: output.mcpBridge,
      callId: output.callId,
      token: output.token,
      ...(output.answers && { answers: output.answers }),
      status: 'input-required' as const,
      question: output.question,
    }
    const resumed = await calls.resume(output.callId, {
      token: output.token,
      ...(caller && { caller }),
      replay: (record) => (tools.has(record.tool) ? spec(tools.get(record.tool)!) : undefined),
    })
    if (!resumed.ok) {
      if (resumed.code === 'NOT_FOUND' || resumed.code === 'FINISHED') return endedOutput(card, resumed.code === 'FINISHED' ? `${resumed.message} Nothing was changed.` : LOST)
      return { ...question, refused: { code: resumed.code, message: resumed.message } }
    }
    const { call } = resumed
    if (resumed.replayed) {
      // Replay the journal up to the question the record says the call waits for.
      const run = outputsToStop(drive, call, card, resumed.record.pending?.id ?? '')
      let step = await run.next()
      while (!step.done) step = await run.next()
      if (step.value.status === 'done') return step.value
    }
    const asked = call.host.pending()
    const outcome = call.host.respond({ id: output.question.id, result: output.answer })
    if (!outcome.ok) {
      await calls.park(call, resumed.record.pending!)
      const current = outcome.code === 'ID_MISMATCH' && asked ? { question: resumed.record.pending!.wire as typeof output.question } : {}
      return { ...question, ...current, refused: { code: outcome.code, message: outcome.message, ...(outcome.issues && { issues: [...outcome.issues] }) } }
    }
    if (asked && output.answer.action === 'accept') {
      const said = summarizeAnswer(withChoices(asked.schema.json, asked.plain?.choices, false), output.answer.content)
      if (said) card.answers = [...(card.answers ?? []), said]
    }
    const run = outputsToStop(drive, call, card)
    for (let step = await run.next(); ; step = await run.next()) {
      if (step.done) return step.value
      writer.write({ type: 'tool-output-available', toolCallId: part.toolCallId!, output: step.value, preliminary: true })
    }
  }

  async function cancel(output: Extract<McpBridgeToolOutput, { status: 'cancel-requested' }>, caller: CallerAuth | undefined): Promise<McpBridgeToolOutput> {
    const card: CallCard = { callId: output.callId, token: output.token, ...(output.answers && { answers: output.answers }) }
    const reason = output.reason ?? STOPPED_BY_USER
    const aborted = await calls.abort(output.callId, output.token, reason, { ...(caller && { caller }) })
    if (!aborted.ok) {
      if (aborted.code === 'NOT_FOUND' || aborted.code === 'FINISHED') return endedOutput(card, aborted.code === 'FINISHED' ? `${aborted.message} Nothing was changed.` : LOST)
      return endedOutput(card, aborted.message)
    }
    return doneOutput(card, { status: 'aborted', reason, cancelled: true, ...(aborted.completed && { completed: aborted.completed }) })
  }

  return {
    prepare,
    tools: (given) => {
      // Without a request there is nobody to bind calls to.
      if (options.authenticate)
        throw new OptionsError('bridge.tools', {
          problem: 'with createAiSdkBridge({ authenticate }) use the tools `prepare({ messages, writer, request })` returns: they run as the signed-in user',
        })
      return toolSet(given?.client, undefined)
    },
    waitingForUser: ({ steps }) => {
      const step = steps[steps.length - 1]
      return step?.toolResults.some((r) => tools.has(r.toolName) && !r.preliminary && readToolOutput(r.output)?.status === 'input-required') ?? false
    },
    calls,
    close: () => calls.close('the server closed'),
  }
}
