/**
 * An MCP call carried to its next stop by the one driver (`calls/drive-to-stop.ts`), with what is
 * MCP's own: its logs and progress go to the round being served (`notifications/message`,
 * `notifications/progress`) in the order the tool emitted them, and a stop becomes one input
 * request — an elicitation in form mode, whose requested schema and message both carry the
 * x-model-context data, or a sampling request. A sample the client cannot serve (no `sampling`,
 * or no `sampling.tools` for a schema) is refused into the tool as an `McpCapabilityError`, which
 * it may catch.
 */
import { race, until, type Operation } from 'effection'
import { inputRequired, type ClientCapabilities, type InputRequest, type LoggingLevel, type ServerContext } from '@modelcontextprotocol/server'
import { driveToStop, type CallReport, type CallStop, type StopSurface, type SurfaceQuestion } from '../calls/drive-to-stop.ts'
import { encodeModelContext } from '../model-context/model-context.ts'
import { McpCapabilityError } from '../errors/call-errors.ts'
import type { ElicitRequest } from '../tool/elicit-request.ts'
import type { SamplingRequest } from '../sampling/provider.ts'
import type { InputWait } from './call-state.ts'
import { missingForSampling, readsModelContext, speaksBefore20251125 } from './client-capabilities.ts'
import { withChoices } from '../tool/plain-form.ts'
import type { McpCall, McpRound } from './mcp-call.ts'
import type { CallRegistry } from '../calls/call-registry.ts'

/** A question as an MCP call stores it: what it waits for, and the input request that asks it. */
export interface McpQuestionWire {
  wait: InputWait
  inputRequest: InputRequest
  /**
   * A task's question asked again after an answer that did not fit, the how-manieth time: its key
   * in `inputRequests` is then new (`serve-tasks.ts`), as a task's keys are never reused.
   */
  retry?: number
}

export type McpStop = CallStop<McpQuestionWire>

export interface McpDrive {
  calls: CallRegistry<McpRound>
  /** The largest context of one question (`limits.maxContextBytes`). */
  maxContextBytes: number
}

/**
 * Carry `call` to its next stop. Without `ctx` (a call recovered after its server stopped: no
 * request is serving it) its logs and progress reach nobody. `replayingTo`: the journal is
 * replayed up to the question with this input key (see `driveToStop`). `park: false`: the caller
 * parks the call at its question (it knows how long the round may wait, and whether a view holds it).
 */
export function* mcpCallToStop(
  drive: McpDrive,
  call: McpCall,
  ctx: ServerContext | undefined,
  { replayingTo, allowsLog = () => true, park = true }: { replayingTo?: string; allowsLog?: (level: LoggingLevel) => boolean; park?: boolean } = {},
): Operation<McpStop> {
  const reporter = new Reporter(call, ctx, allowsLog)
  const stops = driveToStop(call, {
    calls: drive.calls,
    surface: mcpQuestions,
    maxContextBytes: drive.maxContextBytes,
    ...(replayingTo !== undefined && { replayingTo }),
    ...(!park && { park: () => false as const }),
  })
  for (;;) {
    const next = yield* stops.next()
    if (next.done) return next.value
    yield* until(reporter.report(next.value))
  }
}

/**
 * How an MCP call asks: the question (or sample) as an input request, keyed by its place in the
 * journal. What it waits for is also the round's state (`McpRound.wait`), so the next round can
 * hand the answer to it.
 */
const mcpQuestions: StopSurface<McpRound, McpQuestionWire> = {
  question(call, request) {
    return asked(call, request.key, elicitWait(call, request), elicitInput(request, call.extra.caps, call.extra.version))
  },
  *sample(call) {
    const parked = yield* race([call.extra.sampler.parked(), ended(call)])
    if (!parked) return undefined // the call ended; its terminal event follows
    const missing = missingForSampling(parked.request, call.extra.caps)
    const shaped = missing ? undefined : samplingForVersion(parked.request, call.extra.version)
    if (missing || !shaped) {
      const why = missing ?? { capability: 'sampling' as const, why: `this client speaks ${call.extra.version}, where a sampling message holds one content block` }
      parked.resolvers.reject(new McpCapabilityError(call.toolName, why.capability, why.why))
      return undefined
    }
    const wait: InputWait = { kind: 'sample', inputKey: `sample-${call.host.journal.length + 1}` }
    return asked(call, 'sample', wait, inputRequired.createMessage(shaped as Parameters<typeof inputRequired.createMessage>[0]))
  },
}

function asked(call: McpCall, key: string, wait: InputWait, inputRequest: InputRequest): SurfaceQuestion<McpQuestionWire> {
  call.extra.wait = wait
  call.extra.inputRequest = inputRequest
  return { id: wait.inputKey, key, wire: { wait, inputRequest } }
}

/** Returns (nothing) once the call has ended. */
function* ended(call: McpCall): Operation<undefined> {
  yield* until(call.host.outcome)
  return undefined
}

/** The key of the question in `inputRequests`: the key and the question's place in the call's journal. */
function elicitWait(call: McpCall, request: ElicitRequest): InputWait {
  return { kind: 'elicit', inputKey: `elicit-${request.key}-${call.host.journal.length + 1}`, elicitId: request.id }
}

/**
 * The question as an MCP form. A person may read it in a plain form (no UI of this tool), so the
 * message is the question, plus the key's plain-form summary; free string fields with choices are
 * titled selects. The context travels as data in the schema (`x-model-context`), and as a JSON
 * section of the message only for a client that declares it reads it (`readsModelContext`): for
 * anyone else that section would be raw JSON under the question.
 */
function elicitInput(request: ElicitRequest, caps: ClientCapabilities, version: string | undefined): InputRequest {
  const schema = withChoices(request.schema.json, request.plain?.choices, speaksBefore20251125(version))
  const message = request.plain?.summary ? `${request.message}\n\n${request.plain.summary}` : request.message
  const encoded = encodeModelContext({ message, context: request.context, schema }, { section: readsModelContext(caps) })
  return inputRequired.elicit({
    mode: 'form',
    message: encoded.message,
    requestedSchema: encoded.schema as Parameters<typeof inputRequired.elicit>[0]['requestedSchema'],
  })
}

/** Logs become `notifications/message`; progress needs the request's progress token. */
class Reporter {
  #steps = 0
  constructor(
    private readonly call: McpCall,
    private readonly ctx: ServerContext | undefined,
    private readonly allowsLog: (level: LoggingLevel) => boolean,
  ) {}

  async report(event: CallReport): Promise<void> {
    if (!this.ctx) {
      // Nobody to send it to; kept for whoever asks how the call is doing (`tasks/get`).
      if (event.type === 'notify')
        this.call.extra.progress = event.total !== undefined && event.progress !== undefined ? `${event.message} (${event.progress}/${event.total})` : event.message
      return
    }
    try {
      if (event.type === 'log') {
        if (!this.allowsLog(event.level as LoggingLevel)) return
        const data = event.data === undefined ? event.message : { message: event.message, data: event.data }
        await this.ctx.mcpReq.log(event.level as LoggingLevel, data, this.call.toolName)
        return
      }
      const token = this.ctx.mcpReq._meta?.progressToken
      if (token === undefined) return
      this.#steps += 1
      await this.ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          // Progress must increase; a message-only notify counts as one more step.
          progress: event.progress ?? this.#steps,
          ...(event.total !== undefined && { total: event.total }),
          message: event.message,
        },
      })
    } catch {
      // A client that went away misses a report; the call itself goes on (or is cancelled).
    }
  }
}

/**
 * The sampling request in the shape the client's revision accepts: before 2025-11-25 a message
 * holds one content block (not an array). `undefined` when it cannot be said that way.
 */
function samplingForVersion(request: SamplingRequest, version: string | undefined): unknown {
  if (!speaksBefore20251125(version)) return request
  if (request.messages.some((m) => m.content.length !== 1)) return undefined
  return { ...request, messages: request.messages.map((m) => ({ role: m.role, content: m.content[0] })) }
}
