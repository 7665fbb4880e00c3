/** A stored call as tests write one straight into a store: a running call begun at `at`, an hour to live, with `patch` on top. */
import type { CallRecord } from '../../src/server.ts'

export function runningRecord(callId: string, at: number, patch: Partial<CallRecord> = {}): CallRecord {
  return {
    callId,
    surface: 'chat',
    tool: 't',
    params: {},
    paramsDigest: 'd',
    client: 'c',
    status: 'running',
    journal: [],
    owner: 'a',
    revision: 1,
    createdAt: at,
    updatedAt: at,
    expiresAt: at + 3_600_000,
    ...patch,
  }
}
