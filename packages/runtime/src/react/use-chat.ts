/**
 * `useChat({ api, plugins })`: the chat state for a React component, over a `ChatController`.
 * Render `state.items`; for a tool item, `<ToolCallEmissions store={chat.store} callId=… />`
 * shows its plugin UI, or `<GeneratedForm … onSubmit={(r) => chat.respond(callId, r)} />` when
 * `item.elicitation.handledByPlugin` is false. With `id`, the conversation survives reloads
 * (restored on mount; `newConversation()` starts over).
 */
import { useEffect, useState, useSyncExternalStore } from 'react'
import { createChatController, type ChatController, type ChatControllerOptions, type ChatState } from '../client/chat-controller.ts'

export interface UseChatResult extends ChatState {
  sendMessage: ChatController['sendMessage']
  editLastMessage: ChatController['editLastMessage']
  regenerate: ChatController['regenerate']
  respond: ChatController['respond']
  abort: ChatController['abort']
  newConversation: ChatController['newConversation']
  openConversation: ChatController['openConversation']
  renameConversation: ChatController['renameConversation']
  deleteConversation: ChatController['deleteConversation']
  retry: ChatController['retry']
  stop: ChatController['stop']
  dismissNotice: ChatController['dismissNotice']
  store: ChatController['store']
  controller: ChatController
}

/**
 * The chat in a React component: messages and tool calls as `items`, plugin UI at each call's place, status,
 * `sendMessage`, `respond`, `stop`, and (with `id`) the conversation kept across reloads and tabs.
 *
 * @example
 * ```tsx
 * import { useChat } from '@mcp-bridge/runtime/react'
 * import { clientPlugins } from './mcp-bridge/client.gen.ts'
 *
 * export function Chat() {
 *   const chat = useChat({ api: '/api/chat', plugins: clientPlugins, id: 'main' }) // id: kept across reloads
 *   return (
 *     <form onSubmit={(e) => { e.preventDefault(); void chat.sendMessage(new FormData(e.currentTarget).get('q') as string) }}>
 *       {chat.items.map((item) => <p key={item.id}>{item.kind === 'tool' ? item.title : item.text}</p>)}
 *       <input name="q" aria-label="Message" disabled={chat.status === 'awaiting_input'} />
 *     </form>
 *   )
 * }
 * ```
 */
export function useChat(options: ChatControllerOptions = {}): UseChatResult {
  // One controller per component instance; options are read when it is created.
  const [controller] = useState(() => createChatController(options))
  const state = useSyncExternalStore(controller.subscribe, controller.getState, controller.getState)
  useEffect(() => {
    // A kept conversation (`id`) comes back from the server; errors show in `state.error`.
    controller.restore().catch(() => {})
    return () => controller.dispose()
  }, [controller])
  return {
    ...state,
    sendMessage: controller.sendMessage,
    editLastMessage: controller.editLastMessage,
    regenerate: controller.regenerate,
    respond: controller.respond,
    abort: controller.abort,
    newConversation: controller.newConversation,
    openConversation: controller.openConversation,
    renameConversation: controller.renameConversation,
    deleteConversation: controller.deleteConversation,
    retry: controller.retry,
    stop: controller.stop,
    dismissNotice: controller.dismissNotice,
    store: controller.store,
    controller,
  }
}
