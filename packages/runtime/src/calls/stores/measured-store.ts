/**
 * A call store whose every operation is timed into `mcp_bridge.store.duration` (and counted into
 * `mcp_bridge.store.errors` when it fails), by store and operation. Without OpenTelemetry the
 * measuring is one check per operation; what the store does is unchanged.
 */
import { callMetrics } from '../../telemetry/metrics.ts'
import { otel } from '../../telemetry/otel.ts'
import type { CallStore } from './call-store.ts'

/** Every operation of the interface (a store of the app's own may keep its methods on a prototype). */
const OPERATIONS = [
  'create',
  'get',
  'update',
  'lock',
  'renew',
  'unlock',
  'lockHolder',
  'stranded',
  'admit',
  'release',
  'getConversation',
  'getConversationHead',
  'appendConversation',
  'putConversation',
  'sharedSecret',
  'close',
] as const satisfies ReadonlyArray<Exclude<keyof CallStore, 'kind'>>

export function measureStore(store: CallStore): CallStore {
  const measured = { kind: store.kind } as Record<string, unknown>
  for (const name of OPERATIONS) {
    const operation = store[name]
    if (typeof operation !== 'function') continue
    measured[name] = (...args: unknown[]) => {
      if (!otel()) return (operation as (...a: unknown[]) => unknown).apply(store, args)
      const began = performance.now()
      const done = (failed: boolean) => callMetrics.store(performance.now() - began, failed, { 'mcp_bridge.store': store.kind, 'mcp_bridge.store.operation': name })
      return (operation as (...a: unknown[]) => Promise<unknown>).apply(store, args).then(
        (value) => (done(false), value),
        (error: unknown) => {
          done(true)
          throw error
        },
      )
    }
  }
  return measured as unknown as CallStore
}
