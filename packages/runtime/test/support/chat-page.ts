/**
 * A chat page as tests drive one: a chat controller (what `useChat({ id })` runs) against a chat
 * handler in the same process, with the page's storage in memory — a "reload" is a new page over
 * the same storage.
 */
import type { ChatHandler } from '../../src/server.ts'
import { createChatController, type ChatController, type ConversationStorage } from '../../src/client.ts'
import type { PluginClientRegistration } from '../../src/plugin/types.ts'

export function chatPage(handler: ChatHandler, storage: ConversationStorage, plugins: readonly PluginClientRegistration[] = []): ChatController {
  return createChatController({
    id: 'main',
    storage,
    plugins: [...plugins],
    fetch: ((url: string, init: RequestInit) => handler(new Request(`http://127.0.0.1${url}`, init))) as typeof fetch,
  })
}

/** A page's storage (localStorage) in memory; `data` to read what the page kept. */
export function memoryStorage(): ConversationStorage & { data: Map<string, string> } {
  const data = new Map<string, string>()
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) }
}
