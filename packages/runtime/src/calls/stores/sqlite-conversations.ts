/**
 * Conversations in SQLite: a row per conversation (its head as JSON, its state as JSON) and a row
 * per appended log entry, so a turn inserts what it adds and never rewrites what is there. Rows of
 * versions before the log (the whole record in `record`, no head) are read as a head with an empty
 * log, and become the new form at their next write.
 */
import type { CallStore, ConversationHead, ConversationRecord } from './call-store.ts'
import { appendedHead, fromWholeRecord, headOf, writtenHead } from './conversation-format.ts'
import type { Clock } from '../../time/clock.ts'

/** The part of the libsql / better-sqlite3 API used here. */
export interface SqliteHandle {
  exec(sql: string): unknown
  prepare(sql: string): { run(...params: unknown[]): { changes: number }; get(...params: unknown[]): unknown; all(...params: unknown[]): unknown[] }
  transaction<A extends unknown[], R>(fn: (...args: A) => R): ((...args: A) => R) & { immediate: (...args: A) => R }
}

type ConversationMethods = Pick<CallStore, 'getConversation' | 'getConversationHead' | 'appendConversation' | 'putConversation'>

/** `table`: the conversations' table (created by the store); the log's is `${table}_log`. */
export function sqliteConversations(db: SqliteHandle, table: string, clock: Clock): ConversationMethods & { sweep(): void } {
  const log = `${table}_log`
  db.exec(`CREATE TABLE IF NOT EXISTS ${log} (id TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (id, seq))`)
  addHeadColumn(db, table)
  const sql = {
    // The whole record is read only from rows of earlier versions (no head).
    head: db.prepare(`SELECT head, CASE WHEN head IS NULL THEN record END AS record FROM ${table} WHERE id = ? AND expires_at > ?`),
    whole: db.prepare(`SELECT head, record FROM ${table} WHERE id = ? AND expires_at > ?`),
    entries: db.prepare(`SELECT entry FROM ${log} WHERE id = ? ORDER BY seq`),
    // An expired row is as good as absent: a new conversation may take its id.
    insert: db.prepare(
      `INSERT INTO ${table} (id, revision, expires_at, head, record) VALUES (?, 1, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET revision = 1, expires_at = excluded.expires_at, head = excluded.head, record = excluded.record
       WHERE ${table}.expires_at <= ?`,
    ),
    update: db.prepare(`UPDATE ${table} SET revision = ?, expires_at = ?, head = ?, record = ? WHERE id = ? AND revision = ? AND expires_at > ?`),
    updateHead: db.prepare(`UPDATE ${table} SET revision = ?, expires_at = ?, head = ? WHERE id = ? AND revision = ?`),
    append: db.prepare(`INSERT INTO ${log} (id, seq, entry) VALUES (?, ?, ?)`),
    clearLog: db.prepare(`DELETE FROM ${log} WHERE id = ?`),
    sweepLog: db.prepare(`DELETE FROM ${log} WHERE id NOT IN (SELECT id FROM ${table})`),
  }
  type Row = { head: string | null; record: string | null }
  /** The row's head and, for a row of an earlier version, its state (to be written in the new form). */
  const headOfRow = (row: Row): { head: ConversationHead; legacyState?: string } => {
    if (row.head !== null) return { head: JSON.parse(row.head) as ConversationHead }
    const old = fromWholeRecord(row.record!)
    return { head: headOf(old), legacyState: JSON.stringify(old.state ?? null) }
  }
  const stateText = (state: unknown) => JSON.stringify(state ?? null)

  const put = db.transaction((r: Parameters<ConversationMethods['putConversation']>[0], now: number): boolean => {
    const head = JSON.stringify(writtenHead(r))
    const { changes } =
      r.revision === 1
        ? sql.insert.run(r.id, r.expiresAt, head, stateText(r.state), now)
        : sql.update.run(r.revision, r.expiresAt, head, stateText(r.state), r.id, r.revision - 1, now)
    if (changes !== 1) return false
    sql.clearLog.run(r.id)
    return true
  })

  // Immediate: it reads the revision before it writes, and two processes must not both append on it.
  const append = db.transaction((a: Parameters<ConversationMethods['appendConversation']>[0], now: number): ConversationHead | undefined => {
    const row = sql.head.get(a.id, now) as Row | undefined
    const current = row && headOfRow(row)
    if ((current?.head.revision ?? 0) !== a.ifRevision || (current && current.head.secretHash !== a.secretHash)) return undefined
    const texts = a.entries.map((e) => JSON.stringify(e))
    const head = appendedHead(current?.head, a, texts)
    if (!current) {
      // A conversation begins (or takes the id of an expired one, whose entries go).
      sql.clearLog.run(a.id)
      sql.insert.run(a.id, a.expiresAt, JSON.stringify(head), 'null', now)
    } else if (current.legacyState !== undefined) {
      sql.update.run(head.revision, a.expiresAt, JSON.stringify(head), current.legacyState, a.id, a.ifRevision, now)
    } else {
      sql.updateHead.run(head.revision, a.expiresAt, JSON.stringify(head), a.id, a.ifRevision)
    }
    texts.forEach((text, i) => sql.append.run(a.id, (current?.head.logLength ?? 0) + i, text))
    return head
  })

  return {
    async getConversationHead(id) {
      const row = sql.head.get(id, clock.now()) as Row | undefined
      return row && headOfRow(row).head
    },
    async getConversation(id): Promise<ConversationRecord | undefined> {
      const row = sql.whole.get(id, clock.now()) as Row | undefined
      if (!row) return undefined
      if (row.head === null) return fromWholeRecord(row.record!)
      const head = JSON.parse(row.head) as ConversationHead
      const entries = (sql.entries.all(id) as Array<{ entry: string }>).map((e) => JSON.parse(e.entry) as unknown)
      return { ...head, state: JSON.parse(row.record!) ?? undefined, log: entries }
    },
    appendConversation: async (a) => append.immediate(a, clock.now()),
    putConversation: async (r) => put.immediate(r, clock.now()),
    sweep() {
      sql.sweepLog.run()
    },
  }
}

/** Rows of versions before the log have no `head` column: added once (two processes may race to it). */
function addHeadColumn(db: SqliteHandle, table: string): void {
  const hasHead = () => (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).some((c) => c.name === 'head')
  if (hasHead()) return
  try {
    db.exec(`ALTER TABLE ${table} ADD COLUMN head TEXT`)
  } catch (error) {
    if (!hasHead()) throw error
  }
}
