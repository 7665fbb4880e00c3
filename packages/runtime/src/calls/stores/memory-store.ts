/**
 * `createMemoryStore()`: the call store in this process's memory — for tests, and for a single
 * server that accepts losing waiting calls when it restarts. Records are kept as JSON text, like
 * the other stores keep them, so nobody can change a stored record by mutating an object.
 */
import type { CallLease, CallRecord, CallStore, ConversationRecord } from './call-store.ts'
import { StoreClosedError } from './store-errors.ts'

export function createMemoryStore(): CallStore {
  const calls = new Map<string, { text: string; revision: number; expiresAt: number }>()
  const conversations = new Map<string, { text: string; revision: number; expiresAt: number }>()
  // A released lock keeps its row (until = 0), so the call's fence keeps growing across holders.
  const locks = new Map<string, { owner: string; fence: number; until: number }>()
  let closed = false
  let lockings = 0

  /** Forget released locks of calls that have no record (their fences protect nothing any more). */
  function sweepLocks(): void {
    const now = Date.now()
    for (const [id, lock] of locks) if (lock.until <= now && !live(calls, id)) locks.delete(id)
  }

  function live<V extends { expiresAt: number }>(map: Map<string, V>, id: string): V | undefined {
    const entry = map.get(id)
    if (entry && entry.expiresAt <= Date.now()) {
      map.delete(id)
      return undefined
    }
    return entry
  }
  function open(): void {
    if (closed) throw new StoreClosedError('memory')
  }

  return {
    kind: 'memory',
    async create(record) {
      open()
      if (live(calls, record.callId)) return false
      calls.set(record.callId, { text: JSON.stringify(record), revision: record.revision, expiresAt: record.expiresAt })
      return true
    },
    async get(callId) {
      open()
      const entry = live(calls, callId)
      return entry && (JSON.parse(entry.text) as CallRecord)
    },
    async update(record) {
      open()
      const entry = live(calls, record.callId)
      if (!entry || entry.revision !== record.revision - 1) return false
      calls.set(record.callId, { text: JSON.stringify(record), revision: record.revision, expiresAt: record.expiresAt })
      return true
    },
    async lock(callId, owner, ttlMs) {
      open()
      if (++lockings % 500 === 0) sweepLocks()
      const held = locks.get(callId)
      if (held && held.until > Date.now()) return undefined
      const fence = (held?.fence ?? 0) + 1
      locks.set(callId, { owner, fence, until: Date.now() + ttlMs })
      return { callId, owner, fence }
    },
    async renew(lease: CallLease, ttlMs) {
      open()
      const held = locks.get(lease.callId)
      if (!held || held.fence !== lease.fence || held.until <= Date.now()) return false
      held.until = Date.now() + ttlMs
      return true
    },
    async unlock(lease) {
      open()
      const held = locks.get(lease.callId)
      if (held?.fence === lease.fence) held.until = 0
    },
    async getConversation(id) {
      open()
      const entry = live(conversations, id)
      return entry && (JSON.parse(entry.text) as ConversationRecord)
    },
    async putConversation(record) {
      open()
      const entry = live(conversations, record.id)
      if ((entry?.revision ?? 0) !== record.revision - 1) return false
      conversations.set(record.id, { text: JSON.stringify(record), revision: record.revision, expiresAt: record.expiresAt })
      return true
    },
    async close() {
      closed = true
      calls.clear()
      conversations.clear()
      locks.clear()
    },
  }
}
