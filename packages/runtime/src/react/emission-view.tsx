/**
 * Renders what handlers emitted with `ctx.render`, at their tool call's place in the chat.
 * The component receives its props plus `onRespond`, `onCancel` and `errors`.
 */
import { createElement, useSyncExternalStore, type ComponentType } from 'react'
import type { Emission, EmissionSnapshot, EmissionStore } from '../client/emission-store.ts'

export function useEmissions(store: EmissionStore): EmissionSnapshot {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
}

export function PluginEmission({ emission }: { emission: Emission }) {
  return createElement(emission.component as unknown as ComponentType<Record<string, unknown>>, {
    ...emission.props,
    errors: emission.errors,
    onRespond: emission.respond,
    onCancel: emission.cancel,
  })
}

/** Everything a tool call currently shows: its handler's UI and its progress line. */
export function ToolCallEmissions({ store, callId }: { store: EmissionStore; callId: string }) {
  const snapshot = useEmissions(store)
  const emissions = snapshot.emissions.filter((e) => e.callId === callId)
  const progress = snapshot.progress.find((p) => p.callId === callId)
  return (
    <>
      {progress && (
        <p className="mcp-progress" role="status">
          {progress.message}
        </p>
      )}
      {emissions.map((e) => (
        <PluginEmission key={e.id} emission={e} />
      ))}
    </>
  )
}
