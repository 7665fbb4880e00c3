/**
 * The key of a kept conversation: a random id and secret, made in the browser and remembered in
 * `storage` (localStorage by default) under the app's name for the chat. The server knows the
 * conversation only by these (the secret as a hash), so ids are never guessable and a name like
 * "main" reveals nothing. Where nothing can be remembered (storage blocked, a server render) the
 * key lives as long as the page.
 */
import { z } from 'zod/v4'
import { conversationKeySchema, type ConversationKey } from '../protocol/chat-wire.ts'

/** The part of the Web Storage API the key needs. */
export interface ConversationStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/** A conversation this browser keeps: its key, a title for people, when it was last used. */
export interface ConversationEntry extends ConversationKey {
  title: string
  updatedAt: number
  /** The person gave it this title (`rename`): it no longer follows the first message. */
  named?: boolean
}

export interface ConversationKeyStore {
  /** The remembered key, or a new one (remembered): `fresh` when it was made just now (the server has nothing under it yet). */
  load(): ConversationKey & { fresh?: true }
  /** A new key in place of the old one (the old one stays in the list). */
  renew(): ConversationKey
  /** The conversations of this chat in this browser, the most recently used first. */
  list(): ConversationEntry[]
  /**
   * Note that `key` was used now; its title is set the first time (the first message), and again
   * with `retitle` (the first message was edited) unless the person named it.
   */
  touch(key: ConversationKey, title: string, options?: { retitle?: boolean }): void
  /** Make a listed conversation the current one; undefined if it is not listed. */
  open(id: string): ConversationKey | undefined
  rename(id: string, title: string): void
  /** Take a conversation off the list (the server copy is the caller's to delete). */
  remove(id: string): void
}

/** Conversations listed per chat and browser (the server keeps 50 per client by default too). */
const MAX_LISTED = 50
const entrySchema = conversationKeySchema.extend({ title: z.string().max(200), updatedAt: z.number(), named: z.boolean().optional() })

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
  const listSlot = `mcp-bridge:chats:${name}`
  const readList = (): ConversationEntry[] => {
    try {
      const parsed = z.array(entrySchema).safeParse(JSON.parse(storage?.getItem(listSlot) ?? '[]'))
      return parsed.success ? parsed.data : []
    } catch {
      return []
    }
  }
  const writeList = (entries: ConversationEntry[]) => {
    try {
      storage?.setItem(listSlot, JSON.stringify(entries.sort((a, b) => b.updatedAt - a.updatedAt).slice(0, MAX_LISTED)))
    } catch {
      // As above: the list is a convenience of this browser.
    }
  }
  return {
    list: readList,
    touch(key, title, options = {}) {
      const entries = readList()
      const known = entries.find((e) => e.id === key.id)
      const clean = title.replace(/\s+/g, ' ').trim().slice(0, 80) || 'New chat'
      const kept = known && (known.named || !options.retitle) ? known.title : clean
      writeList([...entries.filter((e) => e.id !== key.id), { ...key, title: kept, updatedAt: Date.now(), ...(known?.named && { named: true }) }])
    },
    open(id) {
      const entry = readList().find((e) => e.id === id)
      return entry && remember({ id: entry.id, secret: entry.secret })
    },
    rename(id, title) {
      const clean = title.replace(/\s+/g, ' ').trim().slice(0, 200)
      if (!clean) return
      writeList(readList().map((e) => (e.id === id ? { ...e, title: clean, named: true } : e)))
    },
    remove(id) {
      writeList(readList().filter((e) => e.id !== id))
    },
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
