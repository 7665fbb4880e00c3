/**
 * Conversations in Redis: a hash per conversation (its head, state, and the log's length) and a
 * list of its appended entries, under one hash tag so each script is one slot of a cluster. A turn
 * pushes what it adds; nothing rewrites the conversation but a writer folding its log.
 *
 * Versions before the log kept a conversation whole under `conversation:<id>` (no hash tag); one
 * met there is moved to the new keys at its first read, at its revision, and the old key deleted.
 */
import type { CallStore, ConversationHead, ConversationRecord } from './call-store.ts'
import { appendedHead, fromWholeRecord, headOf, writtenHead } from './conversation-format.ts'
import type { Clock } from '../../time/clock.ts'
import { APPEND_CONVERSATION, PUT_CONVERSATION, READ_CONVERSATION } from './redis-scripts.ts'
import type { RedisClient } from './redis-connection.ts'

type ConversationMethods = Pick<CallStore, 'getConversation' | 'getConversationHead' | 'appendConversation' | 'putConversation'>

/** `command` runs a Redis command as the store does (closed and unavailable errors). */
export function redisConversations(redis: RedisClient, keyPrefix: string, clock: Clock, command: <T>(run: () => Promise<T>) => Promise<T>): ConversationMethods {
  const key = {
    conversation: (id: string) => `${keyPrefix}conversation:{${id}}`,
    log: (id: string) => `${keyPrefix}conversation-log:{${id}}`,
    before: (id: string) => `${keyPrefix}conversation:${id}`,
  }
  const keys = (id: string) => [key.conversation(id), key.log(id)] as const

  const put = async (r: Parameters<ConversationMethods['putConversation']>[0], previous: number): Promise<boolean> => {
    const args = [String(previous), String(r.revision), r.secretHash, JSON.stringify(writtenHead(r)), JSON.stringify(r.state ?? null), String(r.expiresAt)]
    return (await command(() => redis.eval(PUT_CONVERSATION, 2, ...keys(r.id), ...args))) === 1
  }

  /** A conversation of a version before the log, moved to the new keys (undefined if there is none). */
  async function moved(id: string): Promise<ConversationRecord | undefined> {
    const body = await command(() => redis.hget(key.before(id), 'body'))
    if (body === null) return undefined
    const old = fromWholeRecord(body)
    const live = old.expiresAt > clock.now()
    // Two readers may move it at once: the second's write finds the first's and changes nothing.
    if (live) await put(old, 0)
    await command(() => redis.del(key.before(id)))
    return live ? old : undefined
  }

  async function read(id: string, whole: boolean): Promise<ConversationRecord | ConversationHead | undefined> {
    const reply = (await command(() => redis.eval(READ_CONVERSATION, 2, ...keys(id), whole ? 'whole' : 'head'))) as [string, string, string, string?, string[]?] | null
    if (!reply) return moved(id)
    const head: ConversationHead = { ...(JSON.parse(reply[0]) as ConversationHead), logLength: Number(reply[1]), logBytes: Number(reply[2]) }
    if (!whole) return head
    return { ...head, state: JSON.parse(reply[3]!) ?? undefined, log: reply[4]!.map((e) => JSON.parse(e) as unknown) }
  }

  return {
    getConversation: (id) => read(id, true) as Promise<ConversationRecord | undefined>,
    async getConversationHead(id) {
      const found = await read(id, false)
      return found && headOf(found)
    },
    async appendConversation(a) {
      const texts = a.entries.map((e) => JSON.stringify(e))
      const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0)
      // The head without its log's size: the script counts the log and replies its length and bytes.
      const head: ConversationHead = appendedHead(undefined, a, [])
      const args = [String(a.ifRevision), a.secretHash, JSON.stringify(head), String(bytes), String(a.expiresAt), ...texts]
      const reply = (await command(() => redis.eval(APPEND_CONVERSATION, 2, ...keys(a.id), ...args))) as [number, number] | null
      return reply ? { ...head, logLength: Number(reply[0]), logBytes: Number(reply[1]) } : undefined
    },
    putConversation: (r) => put(r, r.revision - 1),
  }
}
