/**
 * Kills in the middle of a turn: a chat server (a child process on one SQLite file, lease 1 s)
 * is killed with SIGKILL 0–5 ms after the first `tool_call` of a round reached its client, while
 * other turns of the round are anywhere in theirs. Then it is restarted on the file, and what the
 * people saw is checked: every conversation whose page showed a tool card shows, on reload, that
 * call's question or its result (nothing stuck), and the held-call counts equal the calls that
 * are really held (nothing counts against a client for a call that no longer exists).
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'libsql'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { type ChatStreamEvent, readChatEvents } from '../../src/client.ts'
import { randomDelay, spawnCrashServer, type CrashServer } from '../support/crash-trial.ts'

const LEASE_MS = 1_000
const ROUNDS = 4
const TURNS_PER_ROUND = 4
const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-kill-turn-'))
const servers: CrashServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.kill()))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Turn {
  conversation: { id: string; secret: string }
  /** The call whose card the page showed, if it showed one before the kill. */
  shown?: string
}

/** Post a turn and read it until the server dies (or the turn ends); `onCard` hears the first tool card. */
async function turn(url: string, route: string, onCard: () => void): Promise<Turn> {
  const conversation = { id: `kill-${randomBytes(8).toString('hex')}`, secret: randomBytes(24).toString('base64url') }
  const seen: Turn = { conversation }
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: `a ticket to ${route}` }] }], conversation }),
      signal: AbortSignal.timeout(30_000),
    })
    for await (const event of readChatEvents(response.body!)) {
      if (event.type === 'tool_call' && !seen.shown) {
        seen.shown = event.callId
        onCard()
      }
    }
  } catch {
    // Cut by the kill: what the page saw is what counts.
  }
  return seen
}

/** What a reload of the conversation shows, once it shows the call's question or result (or the deadline passes). */
async function reloadUntilSettled(url: string, seen: Turn, deadline: number): Promise<ChatStreamEvent[]> {
  for (;;) {
    const response = await fetch(`${url}?conversation=${seen.conversation.id}`, { headers: { authorization: `Bearer ${seen.conversation.secret}` } })
    const events = response.ok ? ((await response.json()) as { events: ChatStreamEvent[] }).events : []
    const settled = events.some((e) => (e.type === 'elicit_request' || e.type === 'tool_result') && e.callId === seen.shown)
    if (settled || Date.now() > deadline) return events
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The calls counted as held (their claim or record still counts), and the calls whose records say they are unfinished. */
function countsOf(path: string): { held: string[]; unfinished: string[] } {
  const db = new Database(path)
  try {
    db.exec('PRAGMA busy_timeout = 5000')
    const now = Date.now()
    const held = (db.prepare('SELECT call_id FROM mcp_bridge_held WHERE until > ? ORDER BY call_id').all(now) as Array<{ call_id: string }>).map((r) => r.call_id)
    const records = db.prepare('SELECT call_id, record FROM mcp_bridge_calls WHERE expires_at > ?').all(now) as Array<{ call_id: string; record: string }>
    const unfinished = records
      .filter((r) => ['running', 'waiting'].includes((JSON.parse(r.record) as { status: string }).status))
      .map((r) => r.call_id)
      .sort()
    return { held, unfinished }
  } finally {
    db.close()
  }
}

describe('a server killed in the middle of a turn', () => {
  it(`SQLite: ${ROUNDS} rounds of ${TURNS_PER_ROUND} turns, killed 0–5 ms after the first tool card reached a page — every card a page showed comes back with its question or result; counts equal held calls`, async () => {
    const db = join(dir, 'calls.db')
    const ledger = join(dir, 'ledger.db')
    let server = await spawnCrashServer(`sqlite:${db}`, ledger, LEASE_MS)
    servers.push(server)
    const shown: Turn[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const victim = server
      let killing: Promise<void> | undefined
      const kill = () => (killing ??= randomDelay(5).then(() => victim.kill()))
      const turns = await Promise.all(Array.from({ length: TURNS_PER_ROUND }, (_, i) => turn(victim.url, `R${round}-${i}`, kill)))
      await (killing ?? victim.kill())
      server = await spawnCrashServer(`sqlite:${db}`, ledger, LEASE_MS)
      servers.push(server)
      shown.push(...turns.filter((t) => t.shown))
    }
    expect(shown.length).toBeGreaterThanOrEqual(ROUNDS)
    // Every card a page showed: a reload shows its question or its result (recovery runs it on).
    const deadline = Date.now() + LEASE_MS * 6 + 30_000
    const stuck: string[] = []
    for (const seen of shown) {
      const events = await reloadUntilSettled(server.url, seen, deadline)
      const card = events.some((e) => e.type === 'tool_call' && e.callId === seen.shown)
      const settled = events.some((e) => (e.type === 'elicit_request' || e.type === 'tool_result') && e.callId === seen.shown)
      if (!card || !settled) stuck.push(`${seen.shown}: ${card ? 'a card with no question or result' : 'no card on reload'} (${events.map((e) => e.type).join(', ')})`)
    }
    expect(stuck).toEqual([])
    // Claims of calls that never got a record lapse within a lease: the counts are the held calls.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 2))
    const { held, unfinished } = countsOf(db)
    expect(held).toEqual(unfinished)
  }, 240_000)
})
