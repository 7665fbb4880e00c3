/**
 * Conversations in Postgres, as in SQLite: a row per conversation (its head and its state as JSON
 * text) and a row per appended log entry, so a turn inserts what it adds and never rewrites what is
 * there. A write locks the conversation's row (`FOR UPDATE`) for its few statements: two tabs
 * appending at once go one after the other, and the second finds the revision moved on.
 */
import type { CallStore, ConversationHead, ConversationRecord } from './call-store.ts'
import { appendedHead, writtenHead } from './conversation-format.ts'
import type { PgQueryable, PgRunner } from './postgres-connection.ts'

type ConversationMethods = Pick<CallStore, 'getConversation' | 'getConversationHead' | 'appendConversation' | 'putConversation'>

/** `s`: the quoted schema; `now()`: the instances' clock. */
export function postgresConversations(db: PgRunner, s: string, now: () => number): ConversationMethods {
  const conversations = `${s}.conversations`
  const log = `${s}.conversation_log`
  /** Take the id for a new conversation (or one whose row expired); false if a live one holds it. */
  const insert = async (q: PgQueryable, id: string, expiresAt: number, head: string, state: string) =>
    (
      await q.query(
        `INSERT INTO ${conversations} (id, revision, expires_at, head, state) VALUES ($1, 1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET revision = 1, expires_at = excluded.expires_at, head = excluded.head, state = excluded.state
         WHERE ${conversations}.expires_at <= $5`,
        [id, expiresAt, head, state, now()],
      )
    ).rowCount === 1

  return {
    async getConversationHead(id) {
      const { rows } = await db.query<{ head: string }>(`SELECT head FROM ${conversations} WHERE id = $1 AND expires_at > $2`, [id, now()])
      return rows[0] && (JSON.parse(rows[0].head) as ConversationHead)
    },
    async getConversation(id): Promise<ConversationRecord | undefined> {
      // One snapshot: a fold writing meanwhile cannot pair a new state with the old log.
      return db.transaction(async (q) => {
        await q.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY')
        const { rows } = await q.query<{ head: string; state: string }>(`SELECT head, state FROM ${conversations} WHERE id = $1 AND expires_at > $2`, [id, now()])
        if (!rows[0]) return undefined
        const entries = await q.query<{ entry: string }>(`SELECT entry FROM ${log} WHERE id = $1 ORDER BY seq`, [id])
        const head = JSON.parse(rows[0].head) as ConversationHead
        return { ...head, state: (JSON.parse(rows[0].state) as unknown) ?? undefined, log: entries.rows.map((e) => JSON.parse(e.entry) as unknown) }
      })
    },
    appendConversation: (a) =>
      db.transaction(async (q) => {
        const { rows } = await q.query<{ head: string }>(`SELECT head FROM ${conversations} WHERE id = $1 AND expires_at > $2 FOR UPDATE`, [a.id, now()])
        const current = rows[0] && (JSON.parse(rows[0].head) as ConversationHead)
        if ((current?.revision ?? 0) !== a.ifRevision || (current && current.secretHash !== a.secretHash)) return undefined
        const texts = a.entries.map((e) => JSON.stringify(e))
        const head = appendedHead(current, a, texts)
        if (!current) {
          // A conversation begins (or takes the id of an expired one, whose entries go).
          if (!(await insert(q, a.id, a.expiresAt, JSON.stringify(head), 'null'))) return undefined
          await q.query(`DELETE FROM ${log} WHERE id = $1`, [a.id])
        } else {
          await q.query(`UPDATE ${conversations} SET revision = $1, expires_at = $2, head = $3 WHERE id = $4`, [head.revision, a.expiresAt, JSON.stringify(head), a.id])
        }
        const first = current?.logLength ?? 0
        for (const [i, text] of texts.entries()) await q.query(`INSERT INTO ${log} (id, seq, entry) VALUES ($1, $2, $3)`, [a.id, first + i, text])
        return head
      }),
    putConversation: (r) =>
      db.transaction(async (q) => {
        const head = JSON.stringify(writtenHead(r))
        const state = JSON.stringify(r.state ?? null)
        const written =
          r.revision === 1
            ? await insert(q, r.id, r.expiresAt, head, state)
            : (
                await q.query(`UPDATE ${conversations} SET revision = $1, expires_at = $2, head = $3, state = $4 WHERE id = $5 AND revision = $6 AND expires_at > $7`, [
                  r.revision,
                  r.expiresAt,
                  head,
                  state,
                  r.id,
                  r.revision - 1,
                  now(),
                ])
              ).rowCount === 1
        if (written) await q.query(`DELETE FROM ${log} WHERE id = $1`, [r.id])
        return written
      }),
  }
}
