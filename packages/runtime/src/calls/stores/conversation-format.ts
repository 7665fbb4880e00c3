/**
 * What the stores share about conversations kept as a head, a state and a log
 * (`ConversationRecord`): reading a record written whole by an earlier version (state and head
 * in one JSON, no log), and building the head of an append.
 */
import type { ConversationAppend, ConversationHead, ConversationRecord, ConversationWrite } from './call-store.ts'

/** A record stored whole by an earlier version: its head, state and an empty log. */
export function fromWholeRecord(text: string): ConversationRecord {
  const old = JSON.parse(text) as ConversationWrite
  return {
    id: old.id,
    secretHash: old.secretHash,
    revision: old.revision,
    updatedAt: old.updatedAt,
    expiresAt: old.expiresAt,
    ...(old.meta !== undefined && { meta: old.meta }),
    state: old.state,
    log: [],
    logLength: 0,
    logBytes: 0,
  }
}

/** The head only of a record. */
export function headOf(record: ConversationRecord | ConversationHead): ConversationHead {
  const { id, secretHash, revision, updatedAt, expiresAt, meta, logLength, logBytes } = record
  return { id, secretHash, revision, updatedAt, expiresAt, ...(meta !== undefined && { meta }), logLength, logBytes }
}

/** The head after `append` of entries whose JSON is `texts`, on top of `before` (none: it begins). */
export function appendedHead(before: ConversationHead | undefined, append: ConversationAppend, texts: readonly string[]): ConversationHead {
  return {
    id: append.id,
    secretHash: append.secretHash,
    revision: append.ifRevision + 1,
    updatedAt: append.updatedAt,
    expiresAt: append.expiresAt,
    ...(append.meta !== undefined && { meta: append.meta }),
    logLength: (before?.logLength ?? 0) + texts.length,
    logBytes: texts.reduce((n, t) => n + Buffer.byteLength(t), before?.logBytes ?? 0),
  }
}

/** The head of a conversation written whole. */
export function writtenHead(record: ConversationWrite): ConversationHead {
  return headOf({ ...record, logLength: 0, logBytes: 0 })
}
