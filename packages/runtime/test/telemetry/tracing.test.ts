/**
 * OpenTelemetry as an app would set it up (the SDK's in-memory exporter and a metric reader),
 * around a booking that waits for a person, is answered once in the first server, and then —
 * after that server stopped — in a second one on the same SQLite file: the call is one trace
 * across both; its steps, samples and waits are spans of it; the metrics count it; no argument,
 * answer or message is in a span.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { context, metrics, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { AggregationTemporality, MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool, createPlugin } from '../../src/index.ts'
import { createChatHandler, createSqliteStore, type CallStore, type ChatHandler } from '../../src/server.ts'
import type { ChatController, ConversationStorage } from '../../src/client.ts'
import { createScriptedModel } from '../../src/testing.ts'
import { resetMetrics } from '../../src/telemetry/metrics.ts'
import { FlightList, nextEmission, SeatPicker, until } from '../support/booking-client.ts'
import { createMcpServer } from '../../src/mcp.ts'
import { accept, connectClient } from '../mcp/support/mcp-clients.ts'
import { captureLogger } from '../support/capture-logger.ts'
import { readChatEvents, type ChatStreamEvent } from '../../src/client.ts'
import type { ChatModel } from '../../src/server.ts'
import { chatPage, memoryStorage } from '../support/chat-page.ts'

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE })
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const exporter = new InMemorySpanExporter()
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
const reader = new TestReader()
const meterProvider = new MeterProvider({ readers: [reader] })
const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-tracing-'))
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  trace.setGlobalTracerProvider(tracerProvider)
  metrics.setGlobalMeterProvider(meterProvider)
  resetMetrics()
})
afterAll(async () => {
  trace.disable()
  metrics.disable()
  context.disable()
  resetMetrics()
  rmSync(dir, { recursive: true, force: true })
})

const bookTrip = createMcpTool('book_trip')
  .parameters(z.object({ destination: z.string() }))
  .elicits({
    pickFlight: {
      response: z.object({ flightId: z.string() }),
      context: z.object({ flights: z.array(z.object({ id: z.string(), airline: z.string(), departs: z.string(), arrives: z.string(), price: z.number() })) }),
    },
    pickSeat: { response: z.object({ row: z.int().min(1).max(30), seat: z.enum(['A', 'B', 'C', 'D']) }), context: z.object({ taken: z.array(z.string()) }) },
  })
  .execute(function* ({ destination }, ctx) {
    const flight = yield* ctx.elicit.strict('pickFlight', {
      message: `Which flight to ${destination}?`,
      flights: [{ id: 'SH-142', airline: 'SkyHigh', departs: '08:00', arrives: '11:30', price: 299 }],
    })
    const seat = yield* ctx.elicit.strict('pickSeat', { message: 'Which seat?', taken: ['1A'] })
    const ticket = yield* ctx.step('issue_ticket', () => Promise.resolve(`TK-${flight.flightId}-${seat.row}${seat.seat}`))
    const tip = yield* ctx.sample({ prompt: `A tip for ${destination}` })
    return { ticket, tip: tip.text }
  })
const tripPlugin = createPlugin(bookTrip)
  .onElicit({
    *pickFlight(req, ctx) {
      return { action: 'accept', content: yield* ctx.render(FlightList, { flights: req.context.flights }) }
    },
    *pickSeat(req, ctx) {
      return { action: 'accept', content: yield* ctx.render(SeatPicker, { taken: req.context.taken }) }
    },
  })
  .build()
const page = (handler: ChatHandler, storage: ConversationStorage): ChatController => chatPage(handler, storage, [tripPlugin.client])
const model = createScriptedModel({
  onUserMessage: [{ match: /book/i, reply: { text: 'On it.', toolCalls: [{ name: 'book_trip', input: { destination: 'Lisbon' } }] } }],
  onToolResult: () => 'Booked.',
  onSample: () => 'Take the metro.',
})

const attribute = (span: ReadableSpan, key: string) => span.attributes[key]
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId

async function collect(): Promise<ResourceMetrics> {
  const { resourceMetrics } = await reader.collect()
  return resourceMetrics
}
function metric(all: ResourceMetrics, name: string) {
  return all.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name)
}

describe('tracing a durable call', () => {
  it('a booking answered in one server and finished in another after the first stopped is one trace, with its steps, sample and waits; the metrics count it', async () => {
    const path = join(dir, 'calls.db')
    const storage = memoryStorage()
    const handlers: Array<{ handler: ChatHandler; store: CallStore }> = []
    const serve = async () => {
      const store = await createSqliteStore({ path })
      const handler = createChatHandler({ tools: [tripPlugin], model, store })
      handlers.push({ handler, store })
      return handler
    }

    const first = page(await serve(), storage)
    await first.restore()
    await first.sendMessage('Book me a trip')
    ;(await nextEmission(first, FlightList)).respond({ flightId: 'SH-142' })
    await nextEmission(first, SeatPicker)
    await until(first, () => first.getState().status === 'awaiting_input')
    first.dispose()
    await handlers[0]!.handler.close()
    await handlers[0]!.store.close()

    // Another server on the same file: the answer replays the call from its journal there.
    const second = page(await serve(), storage)
    await second.restore()
    ;(await nextEmission(second, SeatPicker)).respond({ row: 3, seat: 'B' })
    await until(second, () => second.getState().items.some((i) => i.kind === 'tool' && i.status === 'completed'))
    second.dispose()
    await handlers[1]!.handler.close()
    await handlers[1]!.store.close()
    await tracerProvider.forceFlush()

    const spans = exporter.getFinishedSpans()
    const segments = spans.filter((s) => s.name === 'execute_tool book_trip')
    const callId = attribute(segments[0]!, 'gen_ai.tool.call.id')
    expect(segments.map((s) => [attribute(s, 'mcp_bridge.segment'), attribute(s, 'mcp_bridge.replayed') ?? null, attribute(s, 'mcp_bridge.call.status')])).toEqual([
      ['start', null, 'waiting'], // to the flight question
      ['resume', false, 'waiting'], // the flight answered in the same server, to the seat question
      ['resume', true, 'completed'], // the seat answered in the second server: replayed, then on to its end
    ])
    for (const s of segments) expect(attribute(s, 'gen_ai.tool.call.id')).toBe(callId)
    expect(attribute(segments[0]!, 'gen_ai.operation.name')).toBe('execute_tool')

    // One trace: the first turn's. The call's first span is a child of that turn; every later part of it a child of the first span.
    const traceId = segments[0]!.spanContext().traceId
    const firstTurn = spans.find((s) => s.name === 'invoke_agent mcp-bridge' && s.spanContext().traceId === traceId)!
    expect(parentOf(segments[0]!)).toBe(firstTurn.spanContext().spanId)
    const ofTheCall = spans.filter((s) => s.spanContext().traceId === traceId)
    const ids = new Set(ofTheCall.map((s) => s.spanContext().spanId))
    for (const s of ofTheCall) if (s !== firstTurn) expect(ids.has(parentOf(s)!), `${s.name} hangs off the trace`).toBe(true)
    for (const s of segments.slice(1)) {
      expect(s.spanContext().traceId).toBe(traceId)
      expect(parentOf(s)).toBe(segments[0]!.spanContext().spanId)
      // …and linked to the turn that brought the answer, in its own trace.
      expect(s.links).toHaveLength(1)
      expect(spans.find((t) => t.spanContext().spanId === s.links[0]!.context.spanId)?.name).toBe('invoke_agent mcp-bridge')
    }

    // The waits for the person, each from the question to its answer.
    const waits = ofTheCall.filter((s) => s.name.startsWith('await_input'))
    expect(waits.map((s) => s.name)).toEqual(['await_input pickFlight', 'await_input pickSeat'])
    // The step ran once (in the second server), with its idempotency key; the sample too.
    const steps = ofTheCall.filter((s) => s.name === 'step issue_ticket')
    expect(steps.map((s) => [attribute(s, 'mcp_bridge.step.replayed'), attribute(s, 'mcp_bridge.step.idempotency_key')])).toEqual([[false, `${callId}:issue_ticket#3`]])
    expect(parentOf(steps[0]!)).toBe(segments[2]!.spanContext().spanId)
    expect(ofTheCall.filter((s) => s.name === 'sample').map((s) => attribute(s, 'mcp_bridge.sample.replayed'))).toEqual([false])
    // Model calls are GenAI client spans under their turns.
    expect(
      spans
        .filter((s) => s.name === 'chat scripted-demo')
        .every((s) => attribute(s, 'gen_ai.operation.name') === 'chat' && attribute(s, 'gen_ai.request.model') === 'scripted-demo'),
    ).toBe(true)

    // Nothing anyone typed or answered is in a span.
    const everything = JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events })))
    for (const secret of ['SH-142', 'Lisbon', 'Book me a trip', '3B', 'Take the metro', 'TK-']) expect(everything).not.toContain(secret)

    const all = await collect()
    const sum = (name: string, where: (a: Record<string, unknown>) => boolean = () => true) =>
      (metric(all, name)?.dataPoints ?? [])
        .filter((p) => where(p.attributes))
        .reduce((n, p) => n + (typeof p.value === 'number' ? p.value : (p.value as { count: number }).count), 0)
    expect(sum('mcp_bridge.calls.started', (a) => a['gen_ai.tool.name'] === 'book_trip')).toBe(1)
    expect(sum('mcp_bridge.calls.ended', (a) => a['gen_ai.tool.name'] === 'book_trip' && a['mcp_bridge.outcome'] === 'completed')).toBe(1)
    expect(sum('mcp_bridge.input.wait', (a) => a['gen_ai.tool.name'] === 'book_trip')).toBe(2)
    expect(sum('mcp_bridge.step.duration')).toBe(1)
    expect(sum('mcp_bridge.store.duration', (a) => a['mcp_bridge.store'] === 'sqlite' && a['mcp_bridge.store.operation'] === 'update')).toBeGreaterThan(0)
  }, 30_000)

  it("over MCP (2026-07-28): each round is a tools/call server span; the call's stretches are one trace under the first, each linked to its round", async () => {
    exporter.reset()
    const server = createMcpServer({ name: 'trips', version: '1', tools: [bookTrip] })
    const client = await connectClient(server, '2026-07-28')
    client.elicitAnswers.push(accept({ flightId: 'SH-142' }), accept({ row: 3, seat: 'B' }))
    client.sampleAnswers.push(() => ({ role: 'assistant', content: { type: 'text', text: 'Take the metro.' }, model: 'm' }))
    const result = await client.call('book_trip', { destination: 'Lisbon' })
    expect(result.isError).toBeFalsy()
    await client.close()
    await server.close()
    await tracerProvider.forceFlush()
    const spans = exporter.getFinishedSpans()
    const rounds = spans.filter((s) => s.name === 'tools/call book_trip')
    // The flight, the seat, the model's tip: three questions, four rounds.
    expect(rounds).toHaveLength(4)
    for (const r of rounds) expect([r.kind, attribute(r, 'mcp.method.name'), attribute(r, 'gen_ai.tool.name')]).toEqual([1, 'tools/call', 'book_trip'])
    const segments = spans.filter((s) => s.name === 'execute_tool book_trip')
    expect(segments).toHaveLength(4)
    expect(parentOf(segments[0]!)).toBe(rounds[0]!.spanContext().spanId)
    for (const [i, s] of segments.entries()) {
      expect(s.spanContext().traceId).toBe(rounds[0]!.spanContext().traceId)
      if (i > 0) expect(s.links.map((l) => l.context.spanId)).toEqual([rounds[i]!.spanContext().spanId])
    }
    // Over MCP the client's model is asked between rounds too: its answer is waited for like a person's.
    expect(spans.filter((s) => s.name.startsWith('await_input')).map((s) => s.name)).toEqual(['await_input pickFlight', 'await_input pickSeat', 'await_input sample'])
  }, 30_000)

  it("the logger: a failure's details go to the app's logger, in the trace of the turn it happened in; the client is told a code and a sentence", async () => {
    exporter.reset()
    const unreachable: ChatModel = {
      id: 'far-away',
      // eslint-disable-next-line require-yield
      async *stream() {
        throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:8080'), { code: 'ECONNREFUSED' })
      },
    }
    const logged = captureLogger()
    const handler = createChatHandler({ tools: [], model: unreachable, logger: logged.logger })
    const response = await handler(
      new Request('http://127.0.0.1/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }),
      }),
    )
    const events: ChatStreamEvent[] = []
    for await (const e of readChatEvents(response.body!)) events.push(e)
    await handler.close()
    await tracerProvider.forceFlush()
    const said = events.find((e) => e.type === 'error')
    expect(said).toMatchObject({ code: 'INTERNAL_ERROR', message: 'Something went wrong on the server. Try again in a moment.' })
    expect(JSON.stringify(events)).not.toContain('10.0.0.5')
    const turn = exporter.getFinishedSpans().find((s) => s.name === 'invoke_agent mcp-bridge')!
    expect(logged.entries).toEqual([
      {
        level: 'error',
        message: 'a chat turn failed',
        fields: { err: expect.objectContaining({ message: 'connect ECONNREFUSED 10.0.0.5:8080' }), trace_id: turn.spanContext().traceId, span_id: turn.spanContext().spanId },
      },
    ])
    // The model call's span says it failed, and how.
    const call = exporter.getFinishedSpans().find((s) => s.name === 'chat far-away')!
    expect([call.status.code, call.attributes['error.type']]).toEqual([2, 'ECONNREFUSED'])
  })

  it('checks the logger option: something without the four methods is refused, naming them', () => {
    expect(() => createChatHandler({ tools: [], model, logger: console.log as never })).toThrow(/logger: a logger with debug, info, warn and error methods/)
    expect(() => createMcpServer({ name: 's', version: '1', tools: [], logger: {} as never })).toThrow(/logger: a logger with debug, info, warn and error methods/)
  })
})
