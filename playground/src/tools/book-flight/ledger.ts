/**
 * The ticket ledger: the side effect of a booking, in the playground's SQLite file. The tool
 * issues a ticket inside `ctx.step('issue ticket', ...)`, so a resumed or replayed call never
 * issues it again; the step's idempotency key is also the row's unique key, so even a step cut
 * off by a crash before its result was recorded cannot leave two tickets behind.
 *
 * Server-only: the Vite plugin drops this import from the client bundle with the tool's body.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'libsql'
import { dataFile } from '../../server/store.ts'

export interface IssuedTicket {
  ticketNumber: string
  issuedAt: string
}

let db: InstanceType<typeof Database> | undefined

function ledger(): InstanceType<typeof Database> {
  if (db) return db
  const file = dataFile()
  mkdirSync(dirname(file), { recursive: true }) // the tool may run before any store created the folder
  db = new Database(file)
  db.exec(`
    PRAGMA busy_timeout = 5000;
    CREATE TABLE IF NOT EXISTS tickets (
      idempotency_key TEXT PRIMARY KEY, ticket_number TEXT NOT NULL, flight TEXT NOT NULL, seat TEXT NOT NULL, issued_at TEXT NOT NULL);
  `)
  return db
}

export function issueTicket(idempotencyKey: string, flight: string, seat: string): IssuedTicket {
  const ticketNumber = `TK-${flight}-${seat}`
  const issuedAt = new Date().toISOString()
  const d = ledger()
  d.prepare('INSERT OR IGNORE INTO tickets (idempotency_key, ticket_number, flight, seat, issued_at) VALUES (?, ?, ?, ?, ?)').run(
    idempotencyKey,
    ticketNumber,
    flight,
    seat,
    issuedAt,
  )
  const row = d.prepare('SELECT ticket_number, issued_at FROM tickets WHERE idempotency_key = ?').get(idempotencyKey) as { ticket_number: string; issued_at: string }
  return { ticketNumber: row.ticket_number, issuedAt: row.issued_at }
}

/** Every ticket issued, oldest first (tests and the curious). */
export function listTickets(): Array<{ key: string; ticketNumber: string }> {
  return (ledger().prepare('SELECT idempotency_key AS key, ticket_number AS ticketNumber FROM tickets ORDER BY rowid').all() as Array<{ key: string; ticketNumber: string }>).map(
    ({ key, ticketNumber }) => ({ key, ticketNumber }),
  )
}
