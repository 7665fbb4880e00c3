/**
 * A tool call as OpenTelemetry sees it. A call lives longer than any request: it starts in one,
 * waits for a person, goes on in another — maybe in another process, or after a crash. Each
 * stretch it runs is a span, `execute_tool {tool}` (a *segment*): the first under the request that
 * started the call, every later one under that first one, linked to the request that resumed it —
 * so the whole call, across requests, processes and instances, is one trace. The first segment's
 * traceparent is kept in the call's record for that (`CallRecord.trace`).
 *
 * Within a segment: a span per step (`step {name}`, replayed or run, with its idempotency key)
 * and per sample; when an answer comes, the wait is a span of its own (`await_input {key}`, from
 * when the question was asked). Metrics go along (`telemetry/metrics.ts`). With OpenTelemetry
 * absent every part of this is a no-op.
 */
import type { BridgeOutcome } from '../bridge/create-bridge-host.ts'
import type { CallObserver } from '../bridge/call-observer.ts'
import type { Attributes } from '../telemetry/otel.ts'
import { callMetrics } from '../telemetry/metrics.ts'
import { startSpan, type SpanHandle } from '../telemetry/tracing.ts'
import type { Clock } from '../time/clock.ts'

/** How a segment of the call begins. */
export type SegmentStart =
  /** A new call, under the request that starts it (`parent`). */
  | { kind: 'start'; parent?: string }
  /** An answer reached it (here, or replayed from its journal): the question and since when it waited. */
  | { kind: 'resume'; request?: string; question?: { key: string; askedAt: number }; replayed: boolean }
  /** Its server stopped while it ran; another carries it on. */
  | { kind: 'recover' }

export class CallTrace {
  #segment: SpanHandle
  /** Child spans still open (a sample waiting for the client's model), ended when the segment is. */
  readonly #open = new Set<SpanHandle>()
  readonly observer: CallObserver

  /**
   * `root`: the traceparent of the call's first segment, from its record (a call resumed or
   * recovered here); undefined for a new call, whose first segment this is.
   */
  constructor(
    private readonly info: { callId: string; tool: string; surface: string },
    start: SegmentStart,
    private root: string | undefined,
    private readonly clock: Clock,
  ) {
    this.#segment = this.#begin(start)
    this.root ??= this.#segment.traceparent
    if (start.kind === 'start') callMetrics.started(this.#attributes())
    if (start.kind === 'recover') callMetrics.recovered(this.#attributes())
    this.observer = {
      step: ({ name, idempotencyKey, replayed }) =>
        this.#child(
          `step ${name}`,
          { 'mcp_bridge.step.name': name, 'mcp_bridge.step.idempotency_key': idempotencyKey, 'mcp_bridge.step.replayed': replayed },
          replayed ? undefined : (ms) => callMetrics.step(ms, this.#attributes()),
        ),
      sample: ({ replayed }) => this.#child('sample', { 'gen_ai.operation.name': 'chat', 'mcp_bridge.sample.replayed': replayed }),
    }
  }

  /** The call's trace, to keep in its record: where every later segment starts from. */
  get traceparent(): string | undefined {
    return this.root
  }

  /** The call goes on in this process (a request brought the answer to the copy held here). */
  resumed(start: Extract<SegmentStart, { kind: 'resume' }>): void {
    this.#close()
    this.#segment = this.#begin(start)
  }

  /** It waits for an answer to `key`: this segment ends. */
  parked(key: string): void {
    this.#segment.event('mcp_bridge.input.requested', { 'mcp_bridge.question.key': key })
    this.#segment.set({ 'mcp_bridge.call.status': 'waiting' })
    this.#close()
  }

  /** It ended: the segment says how. */
  ended(outcome: BridgeOutcome<unknown>): void {
    this.#segment.set({ 'mcp_bridge.call.status': outcome.status })
    if (outcome.status === 'failed') this.#segment.fail(outcome.error)
    if (outcome.status === 'aborted') this.#segment.set({ 'mcp_bridge.call.abort_reason': outcome.reason })
    this.#close()
    callMetrics.ended({ ...this.#attributes(), 'mcp_bridge.outcome': outcome.status })
  }

  /** A copy that stops without the call ending (let go of from memory, or superseded): its segment ends. */
  stopped(why: string): void {
    this.#segment.set({ 'mcp_bridge.call.status': 'stopped', 'mcp_bridge.call.stop_reason': why })
    this.#close()
  }

  #begin(start: SegmentStart): SpanHandle {
    const attributes: Attributes = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': this.info.tool,
      'gen_ai.tool.call.id': this.info.callId,
      'mcp_bridge.surface': this.info.surface,
      'mcp_bridge.segment': start.kind,
      ...(start.kind === 'resume' && { 'mcp_bridge.replayed': start.replayed }),
    }
    const name = `execute_tool ${this.info.tool}`
    if (start.kind === 'start') return startSpan(name, { attributes, ...(start.parent !== undefined && { parent: start.parent }) })
    const parent = this.root
    if (start.kind === 'resume' && start.question) {
      // The wait for the answer, from when the question was asked: known only now.
      const { key, askedAt } = start.question
      const waited = startSpan(`await_input ${key}`, {
        attributes: { 'mcp_bridge.question.key': key, 'gen_ai.tool.name': this.info.tool },
        startTime: askedAt,
        ...(parent !== undefined && { parent }),
      })
      waited.end()
      callMetrics.waited(Math.max(0, this.clock.now() - askedAt), this.#attributes())
    }
    return startSpan(name, { attributes, ...(parent !== undefined && { parent }), links: start.kind === 'resume' ? [start.request] : [] })
  }

  /** A child span of the current segment; its end function reports its duration to `measure`. */
  #child(name: string, attributes: Attributes, measure?: (ms: number) => void): (error?: unknown) => void {
    const span = startSpan(name, { attributes, ...(this.#segment.traceparent !== undefined && { parent: this.#segment.traceparent }) })
    const began = this.clock.now()
    this.#open.add(span)
    return (error) => {
      if (!this.#open.delete(span)) return
      if (error !== undefined) span.fail(error)
      span.end()
      measure?.(this.clock.now() - began)
    }
  }

  #close(): void {
    for (const span of this.#open) span.end()
    this.#open.clear()
    this.#segment.end()
  }

  #attributes(): Attributes {
    return { 'gen_ai.tool.name': this.info.tool, 'mcp_bridge.surface': this.info.surface }
  }
}
