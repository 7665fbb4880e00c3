/**
 * OpenTelemetry, when the app has it. `@opentelemetry/api` is an optional peer: `loadOtel()` tries
 * it once (a handler or server being made calls it), and until it is there — or if it never is —
 * every span and instrument of this folder is a no-op and nothing is loaded. With the API but no
 * SDK registered, the API's own no-ops apply. The few parts of the API used here are typed below,
 * so the published types do not depend on the package.
 */

export interface OtelSpanContext {
  traceId: string
  spanId: string
  traceFlags: number
  isRemote?: boolean
}
export interface OtelSpan {
  spanContext(): OtelSpanContext
  setAttributes(attributes: Attributes): unknown
  addEvent(name: string, attributes?: Attributes): unknown
  setStatus(status: { code: number; message?: string }): unknown
  recordException(exception: unknown): unknown
  end(endTime?: number): void
}
export type Attributes = Record<string, string | number | boolean | undefined>
export interface OtelContext {
  readonly __brand?: 'context'
}
interface Tracer {
  startSpan(name: string, options?: { kind?: number; attributes?: Attributes; links?: Array<{ context: OtelSpanContext }>; startTime?: number }, context?: OtelContext): OtelSpan
}
interface Counter {
  add(value: number, attributes?: Attributes): void
}
interface Histogram {
  record(value: number, attributes?: Attributes): void
}
export interface OtelMeter {
  createCounter(name: string, options?: { description?: string; unit?: string }): Counter
  createHistogram(name: string, options?: { description?: string; unit?: string }): Histogram
}
export interface OtelApi {
  trace: {
    getTracer(name: string, version?: string): Tracer
    getActiveSpan(): OtelSpan | undefined
    setSpan(context: OtelContext, span: OtelSpan): OtelContext
    setSpanContext(context: OtelContext, spanContext: OtelSpanContext): OtelContext
    isSpanContextValid(spanContext: OtelSpanContext): boolean
  }
  context: {
    active(): OtelContext
    with<T>(context: OtelContext, fn: () => T): T
  }
  metrics: { getMeter(name: string, version?: string): OtelMeter }
  ROOT_CONTEXT: OtelContext
}

let loading: Promise<OtelApi | undefined> | undefined
let loaded: OtelApi | undefined
let disabled = false

/** Load the API if the app has it (once); resolves with it, or undefined. */
export function loadOtel(): Promise<OtelApi | undefined> {
  if (disabled) return Promise.resolve(undefined)
  // A package name known only at run time: bundlers leave it to Node, and its absence is no error.
  loading ??= import(/* @vite-ignore */ OTEL_API).then(
    (module: OtelApi & { default?: OtelApi }) => (loaded = module.trace ? module : module.default),
    () => undefined,
  )
  return loading
}

const OTEL_API: string = '@opentelemetry/api'

/** The API, if it has loaded. */
export function otel(): OtelApi | undefined {
  return disabled ? undefined : loaded
}

/** For tests: behave as if the API were not installed (or again as it is). */
export function setOtelDisabled(value: boolean): void {
  disabled = value
}

/** The trace and span the current code runs in, for log lines. */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  const api = otel()
  const context = api?.trace.getActiveSpan()?.spanContext()
  if (!api || !context || !api.trace.isSpanContextValid(context)) return undefined
  return { trace_id: context.traceId, span_id: context.spanId }
}
