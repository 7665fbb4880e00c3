/**
 * What `ctx.render` puts on screen, keyed by tool call: the chat message list shows each
 * emission at its tool call's place. A tiny external store (subscribe / getSnapshot) so React
 * reads it with `useSyncExternalStore` and tests read it directly.
 */
import type { IssueSummary } from '../errors/issues.ts'
import type { UiComponent } from '../plugin/types.ts'

/**
 * What a plugin handler shows with `ctx.render`: the component, its props, the errors of a refused answer, and how to answer or cancel.
 */
export interface Emission {
  /** Stable per render call; React uses it as the key. */
  id: string
  callId: string
  /** The question it answers. */
  elicitId: string
  component: UiComponent<never>
  props: Record<string, unknown>
  errors: readonly IssueSummary[] | undefined
  /** Its answer is on the way to the server (the UI shows a spinner and holds further input). */
  sending?: boolean
  respond(value: unknown): void
  cancel(): void
}

/**
 * A progress line a handler shows under its tool call (`ctx.reportProgress`).
 */
export interface ProgressLine {
  callId: string
  message: string
}

/**
 * Everything plugin handlers show right now: their components and progress lines.
 */
export interface EmissionSnapshot {
  emissions: readonly Emission[]
  progress: readonly ProgressLine[]
}

/**
 * Where plugin handlers' UI waits to be rendered: what `ctx.render` shows and `ctx.reportProgress` says, per tool call.
 */
export interface EmissionStore {
  subscribe(listener: () => void): () => void
  getSnapshot(): EmissionSnapshot
  show(emission: Emission): void
  remove(id: string): void
  removeCall(callId: string): void
  /** Mark a call's emissions as sending their answer, or not any more. */
  sending(callId: string, sending: boolean): void
  progress(callId: string, message: string): void
  /** Take back errors that no longer hold (an answer that could not be delivered, once the server is back). */
  dropErrors(stale: (error: IssueSummary) => boolean): void
}

/**
 * An empty `EmissionStore`; render it with `useEmissions` / `ToolCallEmissions`.
 *
 * @example
 * ```ts
 * import { createEmissionStore } from '@mcp-bridge/runtime/client'
 *
 * const store = createEmissionStore()
 * store.subscribe(() => console.log(store.getSnapshot().emissions.length))
 * ```
 */
export function createEmissionStore(): EmissionStore {
  let snapshot: EmissionSnapshot = { emissions: [], progress: [] }
  const listeners = new Set<() => void>()
  const update = (next: EmissionSnapshot) => {
    snapshot = next
    for (const listener of [...listeners]) listener()
  }
  return {
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    getSnapshot: () => snapshot,
    show: (emission) => update({ ...snapshot, emissions: [...snapshot.emissions.filter((e) => e.callId !== emission.callId), emission] }),
    remove: (id) => {
      if (snapshot.emissions.some((e) => e.id === id)) update({ ...snapshot, emissions: snapshot.emissions.filter((e) => e.id !== id) })
    },
    removeCall: (callId) =>
      update({
        emissions: snapshot.emissions.filter((e) => e.callId !== callId),
        progress: snapshot.progress.filter((p) => p.callId !== callId),
      }),
    sending: (callId, sending) => {
      if (!snapshot.emissions.some((e) => e.callId === callId && (e.sending === true) !== sending)) return
      update({ ...snapshot, emissions: snapshot.emissions.map((e) => (e.callId === callId ? { ...e, sending } : e)) })
    },
    progress: (callId, message) => update({ ...snapshot, progress: [...snapshot.progress.filter((p) => p.callId !== callId), { callId, message }] }),
    dropErrors: (stale) => {
      if (!snapshot.emissions.some((e) => e.errors?.some(stale))) return
      update({
        ...snapshot,
        emissions: snapshot.emissions.map((e) => {
          const kept = e.errors?.filter((error) => !stale(error))
          return e.errors && kept!.length !== e.errors.length ? { ...e, errors: kept!.length > 0 ? kept : undefined } : e
        }),
      })
    },
  }
}
