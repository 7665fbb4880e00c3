/**
 * The runtime's metrics, through OpenTelemetry's API when the app has it (no-ops otherwise):
 *
 *   - `mcp_bridge.calls.started`, `.ended` (`mcp_bridge.outcome`: completed, failed, aborted),
 *     `.recovered` — tool calls, by `gen_ai.tool.name` and `mcp_bridge.surface` (chat, mcp, ai-sdk);
 *   - `mcp_bridge.input.wait` (s) — how long a call waited for its answer (a person, or the
 *     client's model);
 *   - `mcp_bridge.step.duration` (s) — each `ctx.step` that ran (not replayed);
 *   - `mcp_bridge.store.duration` (s) and `mcp_bridge.store.errors` — each call-store operation,
 *     by `mcp_bridge.store` and `mcp_bridge.store.operation`;
 *   - `mcp_bridge.refusals` — new calls refused or made room for, by `mcp_bridge.limit`.
 */
import { otel, type Attributes, type OtelMeter } from './otel.ts'
import { INSTRUMENTATION } from './tracing.ts'

type Instruments = ReturnType<typeof create>

let made: { meter: OtelMeter; instruments: Instruments } | undefined

function create(meter: OtelMeter) {
  return {
    started: meter.createCounter('mcp_bridge.calls.started', { description: 'Tool calls started' }),
    ended: meter.createCounter('mcp_bridge.calls.ended', { description: 'Tool calls that ended, by outcome' }),
    recovered: meter.createCounter('mcp_bridge.calls.recovered', { description: 'Tool calls carried on after their server stopped' }),
    wait: meter.createHistogram('mcp_bridge.input.wait', { description: 'How long a call waited for its answer', unit: 's' }),
    step: meter.createHistogram('mcp_bridge.step.duration', { description: 'Steps that ran (not replayed)', unit: 's' }),
    store: meter.createHistogram('mcp_bridge.store.duration', { description: 'Call store operations', unit: 's' }),
    storeErrors: meter.createCounter('mcp_bridge.store.errors', { description: 'Call store operations that failed' }),
    refusals: meter.createCounter('mcp_bridge.refusals', { description: 'New tool calls refused, or that ended another to make room, by limit' }),
  }
}

/** The instruments, made on first use once the API is there (a meter provider registered later is picked up by the API's proxy). */
function instruments(): Instruments | undefined {
  const api = otel()
  if (!api) return undefined
  if (!made) {
    const meter = api.metrics.getMeter(INSTRUMENTATION)
    made = { meter, instruments: create(meter) }
  }
  return made.instruments
}

export const callMetrics = {
  started: (attributes: Attributes) => instruments()?.started.add(1, attributes),
  ended: (attributes: Attributes) => instruments()?.ended.add(1, attributes),
  recovered: (attributes: Attributes) => instruments()?.recovered.add(1, attributes),
  waited: (ms: number, attributes: Attributes) => instruments()?.wait.record(ms / 1000, attributes),
  step: (ms: number, attributes: Attributes) => instruments()?.step.record(ms / 1000, attributes),
  store: (ms: number, failed: boolean, attributes: Attributes) => {
    const i = instruments()
    i?.store.record(ms / 1000, attributes)
    if (failed) i?.storeErrors.add(1, attributes)
  },
  refused: (attributes: Attributes) => instruments()?.refusals.add(1, attributes),
}

/** For tests that register a new meter provider: make the instruments again on next use. */
export function resetMetrics(): void {
  made = undefined
}
