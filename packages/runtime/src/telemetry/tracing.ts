/**
 * Spans, as this runtime makes them: started with an explicit parent — a W3C `traceparent`
 * string, which a call keeps in its stored record so that its later parts (the answer on another
 * instance, a recovery after a crash) join the same trace — or the active context. Effection
 * tasks and stored calls do not carry an async context, so nothing here relies on one being set.
 *
 * Names and attributes follow OpenTelemetry's GenAI conventions (`execute_tool {tool}`,
 * `gen_ai.*`) and MCP conventions (`mcp.method.name`, `mcp.session.id`). Arguments, answers and
 * content are never attributes.
 */
import { otel, type Attributes, type OtelSpan, type OtelSpanContext } from './otel.ts'

/** The tracer's name: what a backend groups these spans under. */
export const INSTRUMENTATION = '@mcp-bridge/runtime'

const KIND = { internal: 0, server: 1, client: 2 } as const
const STATUS_ERROR = 2

/** A span, or nothing when OpenTelemetry is absent. */
export interface SpanHandle {
  /** This span as a W3C traceparent, to start children from or keep in a record. */
  readonly traceparent: string | undefined
  set(attributes: Attributes): void
  event(name: string, attributes?: Attributes): void
  /** The operation failed: the span's status says so (with the error's type and message). */
  fail(error: unknown): void
  end(endTime?: number): void
  /** Run `fn` with this span active (log lines carry its ids; a library's spans become its children). */
  active<T>(fn: () => T): T
}

export interface SpanOptions {
  kind?: keyof typeof KIND
  attributes?: Attributes
  /** A traceparent to start under; default: the active span, if any. */
  parent?: string
  /** Spans this one follows from (the request that resumed a call). */
  links?: ReadonlyArray<string | undefined>
  /** When it began (epoch ms), if before now: a person's wait, known when it ends. */
  startTime?: number
}

const NO_SPAN: SpanHandle = { traceparent: undefined, set() {}, event() {}, fail() {}, end() {}, active: (fn) => fn() }

export function startSpan(name: string, options: SpanOptions = {}): SpanHandle {
  const api = otel()
  if (!api) return NO_SPAN
  const tracer = api.trace.getTracer(INSTRUMENTATION)
  const parent = options.parent === undefined ? api.context.active() : api.trace.setSpanContext(api.ROOT_CONTEXT, parseTraceparent(options.parent) ?? INVALID)
  const links = (options.links ?? []).flatMap((l) => {
    const context = l === undefined ? undefined : parseTraceparent(l)
    return context ? [{ context }] : []
  })
  const span = tracer.startSpan(
    name,
    {
      kind: KIND[options.kind ?? 'internal'],
      ...(options.attributes && { attributes: defined(options.attributes) }),
      ...(links.length > 0 && { links }),
      ...(options.startTime !== undefined && { startTime: options.startTime }),
    },
    parent,
  )
  return handle(span)
}

function handle(span: OtelSpan): SpanHandle {
  const context = span.spanContext()
  const traceparent = otel()!.trace.isSpanContextValid(context) ? formatTraceparent(context) : undefined
  return {
    traceparent,
    set: (attributes) => void span.setAttributes(defined(attributes)),
    event: (name, attributes) => void span.addEvent(name, attributes && defined(attributes)),
    fail(error) {
      span.recordException(error instanceof Error ? error : new Error(String(error)))
      span.setStatus({ code: STATUS_ERROR, message: error instanceof Error ? error.message : String(error) })
      span.setAttributes({ 'error.type': error instanceof Error ? ((error as { code?: string }).code ?? error.name) : 'Error' })
    },
    end: (endTime) => span.end(endTime),
    active(fn) {
      const api = otel()!
      return api.context.with(api.trace.setSpan(api.context.active(), span), fn)
    },
  }
}

const INVALID: OtelSpanContext = { traceId: '00000000000000000000000000000000', spanId: '0000000000000000', traceFlags: 0 }

export function formatTraceparent(context: OtelSpanContext): string {
  return `00-${context.traceId}-${context.spanId}-${(context.traceFlags & 0xff).toString(16).padStart(2, '0')}`
}

export function parseTraceparent(value: string): OtelSpanContext | undefined {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(value)
  return match ? { traceId: match[1]!, spanId: match[2]!, traceFlags: Number.parseInt(match[3]!, 16), isRemote: true } : undefined
}

function defined(attributes: Attributes): Attributes {
  return Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== undefined))
}
