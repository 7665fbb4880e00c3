/**
 * The key of a kept conversation: a random id and secret, made in the browser and remembered in
 * `storage` (localStorage by default) under the app's name for the chat. The server knows the
 * conversation only by these (the secret as a hash), so ids are never guessable and a name like
 * "main" reveals nothing. Where nothing can be remembered (storage blocked, a server render) the
 * key lives as long as the page.
 */
import { conversationKeySchema, type ConversationKey } from '../protocol/chat-wire.ts'

/** The part of the Web Storage API the key needs. */
export interface ConversationStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

export interface ConversationKeyStore {
  /** The remembered key, or a new one (remembered): `fresh` when it was made just now (the server has nothing under it yet). */
  load(): ConversationKey & { fresh?: true }
  /** A new key in place of the old one. */
  renew(): ConversationKey
}

export function conversationKeyStore(name: string, storage: ConversationStorage | undefined = defaultStorage()): ConversationKeyStore {
  const slot = `mcp-bridge:chat:${name}`
  const remember = (key: ConversationKey) => {
    try {
      storage?.setItem(slot, JSON.stringify(key))
    } catch {
      // Quota or privacy mode: the conversation still works, a reload just starts a new one.
    }
    return key
  }
  return {
    load() {
      let saved: unknown
      try {
        saved = JSON.parse(storage?.getItem(slot) ?? 'null')
      } catch {
        saved = undefined
      }
      const parsed = conversationKeySchema.safeParse(saved)
      return parsed.success ? parsed.data : { ...remember(newKey()), fresh: true }
    },
    renew: () => remember(newKey()),
  }
}

function newKey(): ConversationKey {
  return { id: randomText(16), secret: randomText(32) }
}

/** `bytes` random bytes as base64url (16 bytes: 22 characters, 128 bits). */
function randomText(bytes: number): string {
  const data = globalThis.crypto.getRandomValues(new Uint8Array(bytes))
  let binary = ''
  for (const byte of data) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function defaultStorage(): ConversationStorage | undefined {
  try {
    return globalThis.localStorage ?? undefined
  } catch {
    // Reading localStorage throws where the browser blocks it.
    return undefined
  }
}
