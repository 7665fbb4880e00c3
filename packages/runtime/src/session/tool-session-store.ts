/**
 * Where session metadata lives (seed 001 `ToolSessionStore`). Operations, so a store backed by
 * Redis or a database fits the same interface. The journal in each entry is what a store that
 * outlives the process would replay from; the in-memory store is the default.
 */
import type { Operation } from 'effection'
import type { JournalEntry } from '../bridge/journal.ts'

export type ToolSessionStatus = 'running' | 'awaiting_elicit' | 'awaiting_sample' | 'completed' | 'failed' | 'aborted'

export interface ToolSessionEntry {
  sessionId: string
  toolName: string
  callId: string
  status: ToolSessionStatus
  createdAt: number
  lastActivity: number
  journal: readonly JournalEntry[]
  refCount?: number
}

export interface ToolSessionStore {
  get(sessionId: string): Operation<ToolSessionEntry | null>
  set(sessionId: string, entry: ToolSessionEntry): Operation<void>
  delete(sessionId: string): Operation<void>
  updateRefCount(sessionId: string, delta: number): Operation<number>
  updateStatus(sessionId: string, status: ToolSessionStatus): Operation<void>
}

export function createMemorySessionStore(): ToolSessionStore & { readonly size: number } {
  const entries = new Map<string, ToolSessionEntry>()
  return {
    get size() {
      return entries.size
    },
    *get(id) {
      return entries.get(id) ?? null
    },
    *set(id, entry) {
      entries.set(id, entry)
    },
    *delete(id) {
      entries.delete(id)
    },
    *updateRefCount(id, delta) {
      const entry = entries.get(id)
      if (!entry) return 0
      entry.refCount = (entry.refCount ?? 0) + delta
      return entry.refCount
    },
    *updateStatus(id, status) {
      const entry = entries.get(id)
      if (entry) entry.status = status
    },
  }
}
