/**
 * Renders what handlers emitted with `ctx.render`, at their tool call's place in the chat.
 * The component receives its props plus `onRespond`, `onCancel` and `errors`.
 */
import { createElement, useSyncExternalStore, type ComponentType } from 'react'
import type { Emission, EmissionSnapshot, EmissionStore } from '../client/emission-store.ts'
import { isGeneratedFormSlot, type GeneratedFormSlotProps } from '../plugin/generated-form.ts'
import type { RenderedProps } from '../plugin/types.ts'
import { GeneratedForm } from './generated-form.tsx'

/**
 * What plugin handlers show right now, kept current (a React hook over an `EmissionStore`).
 *
 * @example
 * ```tsx
 * import { useEmissions, useChat } from '@mcp-bridge/runtime/react'
 *
 * export function OpenQuestions() {
 *   const chat = useChat()
 *   const { emissions } = useEmissions(chat.store)
 *   return <p>{emissions.length} open</p>
 * }
 * ```
 */
export function useEmissions(store: EmissionStore): EmissionSnapshot {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
}

/**
 * Renders one thing a plugin handler showed (`ctx.render`): its component with `onRespond`, `onCancel` and `errors`, or the generated form.
 *
 * @example
 * ```tsx
 * import { PluginEmission, useChat, useEmissions } from '@mcp-bridge/runtime/react'
 *
 * export function Overlay() {
 *   const chat = useChat()
 *   const { emissions } = useEmissions(chat.store)
 *   return emissions.map((emission) => <PluginEmission key={emission.id} emission={emission} />)
 * }
 * ```
 */
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

/**
 * Everything a tool call currently shows: its handler's UI and its progress line.
 *
 * @example
 * ```tsx
 * import { ToolCallEmissions, useChat } from '@mcp-bridge/runtime/react'
 * import { clientPlugins } from './mcp-bridge/client.gen.ts'
 *
 * export function Chat() {
 *   const chat = useChat({ plugins: clientPlugins })
 *   return chat.items.map((item) => (item.kind === 'tool' ? <ToolCallEmissions key={item.id} store={chat.store} callId={item.callId} /> : <p key={item.id}>{item.text}</p>))
 * }
 * ```
 */
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

/**
 * Shown while an answer is on its way: a spinner (hidden from assistive tech) and a polite status.
 *
 * @example
 * ```tsx
 * import { SendingAnswer } from '@mcp-bridge/runtime/react'
 *
 * export const Busy = ({ sending }: { sending: boolean }) => (sending ? <SendingAnswer /> : null)
 * ```
 */
export function SendingAnswer() {
  return (
    <p className="mcp-sending" role="status">
      <span className="mcp-spinner" aria-hidden="true" /> Sending your answer…
    </p>
  )
}
