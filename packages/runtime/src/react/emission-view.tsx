/**
 * Renders what handlers emitted with `ctx.render`, at their tool call's place in the chat.
 * The component receives its props plus `onRespond`, `onCancel` and `errors`.
 */
import { createElement, useSyncExternalStore, type ComponentType } from 'react'
import type { Emission, EmissionSnapshot, EmissionStore } from '../client/emission-store.ts'
import { isGeneratedFormSlot, type GeneratedFormSlotProps } from '../plugin/generated-form.ts'
import type { RenderedProps } from '../plugin/types.ts'
import { GeneratedForm } from './generated-form.tsx'

export function useEmissions(store: EmissionStore): EmissionSnapshot {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
}

export function PluginEmission({ emission }: { emission: Emission }) {
  // A key delegated to the generated form (`generatedForm`, `ctx.generatedForm()`): the same form a tool without a plugin gets.
  if (isGeneratedFormSlot(emission.component)) {
    const props = emission.props as Omit<GeneratedFormSlotProps, keyof RenderedProps<unknown>>
    return (
      <GeneratedForm
        message={props.message}
        schema={props.schema}
        {...(emission.errors && { errors: emission.errors })}
        disabled={emission.sending === true}
        onSubmit={emission.respond}
      />
    )
  }
  return createElement(emission.component as unknown as ComponentType<Record<string, unknown>>, {
    ...emission.props,
    errors: emission.errors,
    sending: emission.sending === true,
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
      {emissions.some((e) => e.sending) && <SendingAnswer />}
    </>
  )
}

/** Shown while an answer is on its way: a spinner (hidden from assistive tech) and a polite status. */
export function SendingAnswer() {
  return (
    <p className="mcp-sending" role="status">
      <span className="mcp-spinner" aria-hidden="true" /> Sending your answer…
    </p>
  )
}
