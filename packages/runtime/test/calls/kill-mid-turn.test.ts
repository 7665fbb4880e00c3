/**
 * Kills in the middle of a turn: a chat server (a child process, lease 1 s) is killed with
 * SIGKILL 0–10 ms after the first `tool_call` of a round reached its client (even rounds) or at a
 * random point 0–400 ms into the round's turns (odd rounds), while other turns of the round are
 * anywhere in theirs — on one SQLite file (the server restarted on it), and on
 * Redis with three instances (the killed one restarted, the reloads going to the others). Then
 * what the people saw is checked: every conversation whose page showed a tool card shows, on
 * reload, that call's question or its result (nothing stuck); the held-call counts equal the calls
 * really held. Then every question is answered on one instance, killed while the answers run their
 * steps: every conversation shows its call's result on reload, whichever instance ended it, and
 * the ledger holds one ticket per completed booking.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'libsql'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type ChatStreamEvent, readChatEvents } from '../../src/client.ts'
import { type CallStore, createRedisStore, createSqliteStore } from '../../src/server.ts'
import { type Booking, finishAll, randomDelay, readLedger, sendAnswer, spawnCrashServer, whenRunning, type CrashServer } from '../support/crash-trial.ts'
import { type RedisProcess, startRedis } from '../support/redis-server.ts'
import { Redis } from 'ioredis'

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
async function reloadUntilSettled(
  url: string,
  seen: Turn,
  deadline: number,
  shows: ReadonlyArray<ChatStreamEvent['type']> = ['elicit_request', 'tool_result'],
): Promise<ChatStreamEvent[]> {
  for (;;) {
    const response = await fetch(`${url}?conversation=${seen.conversation.id}`, { headers: { authorization: `Bearer ${seen.conversation.secret}` } })
    const events = response.ok ? ((await response.json()) as { events: ChatStreamEvent[] }).events : []
    const settled = events.some((e) => shows.includes(e.type) && 'callId' in e && e.callId === seen.shown)
    if (settled || Date.now() > deadline) return events
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** SQLite: the calls counted as held (their claim or record still counts), and the calls whose records say they are unfinished. */
function sqliteCounts(path: string): { held: string[]; unfinished: string[] } {
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

/** Redis: the same, from the held index and the calls' hashes (the default key prefix). */
async function redisCounts(url: string): Promise<{ held: string[]; unfinished: string[] }> {
  const redis = new Redis(url)
  try {
    const held = (await redis.zrangebyscore('mcp-bridge:{idx}:held:all', Date.now(), '+inf')).map((member) => member.slice(member.indexOf('\n') + 1)).sort()
    const unfinished: string[] = []
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', 'mcp-bridge:call:*', 'COUNT', 500)
      cursor = next
      for (const key of keys) if (['running', 'waiting'].includes((await redis.hget(key, 'status')) ?? '')) unfinished.push(key.slice('mcp-bridge:call:{'.length, -1))
    } while (cursor !== '0')
    return { held, unfinished: unfinished.sort() }
  } finally {
    redis.disconnect()
  }
}

/** The answer a page sends to the question its reload shows (accept), as a booking the trial can resend. */
function answerOf(seen: Turn, snapshot: { messages: unknown[]; events: ChatStreamEvent[] }): Booking | undefined {
  const call = snapshot.events.find((e) => e.type === 'tool_call' && e.callId === seen.shown)
  const asked = snapshot.events.findLast((e) => e.type === 'elicit_request' && e.callId === seen.shown)
  if (call?.type !== 'tool_call' || asked?.type !== 'elicit_request' || !call.token) return undefined
  return {
    callId: call.callId,
    answer: {
      messages: snapshot.messages as Booking['answer']['messages'],
      conversation: seen.conversation,
      elicitResponses: [{ callId: call.callId, elicitId: asked.request.id, token: call.token, result: { action: 'accept', content: { ok: true } } }],
    },
  }
}

interface Trial {
  storeArg: string
  store: CallStore
  instances: number
  ledger: string
  counts(): Promise<{ held: string[]; unfinished: string[] }>
}

async function killMidTurn({ storeArg, store, instances, ledger, counts }: Trial): Promise<void> {
  const live = await Promise.all(Array.from({ length: instances }, () => spawnCrashServer(storeArg, ledger, LEASE_MS)))
  servers.push(...live)
  const shown: Turn[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const slot = round % instances
    const victim = live[slot]!
    // Even rounds: 0–10 ms after the first tool card reached a page (the moment write-ahead is for).
    // Odd rounds: at a random point of the turns (0–400 ms after they were sent): before any
    // card, in the first step, at the question — wherever it lands.
    let killing: Promise<void> | undefined
    const kill = () => (killing ??= randomDelay(10).then(() => victim.kill()))
    if (round % 2 === 1) killing = randomDelay(400).then(() => victim.kill())
    const turns = await Promise.all(Array.from({ length: TURNS_PER_ROUND }, (_, i) => turn(victim.url, `R${round}-${i}`, round % 2 === 0 ? kill : () => {})))
    await (killing ?? victim.kill())
    live[slot] = await spawnCrashServer(storeArg, ledger, LEASE_MS)
    servers.push(live[slot]!)
    shown.push(...turns.filter((t) => t.shown))
  }
  expect(shown.length).toBeGreaterThanOrEqual(ROUNDS / 2)
  // Every card a page showed: a reload (on any instance) shows its question or its result (recovery runs it on).
  const deadline = Date.now() + LEASE_MS * 6 + 30_000
  const stuck: string[] = []
  const bookings: Booking[] = []
  for (const [i, seen] of shown.entries()) {
    const url = live[i % live.length]!.url
    const events = await reloadUntilSettled(url, seen, deadline)
    const card = events.some((e) => e.type === 'tool_call' && e.callId === seen.shown)
    const settled = events.some((e) => (e.type === 'elicit_request' || e.type === 'tool_result') && e.callId === seen.shown)
    if (!card || !settled) stuck.push(`${seen.shown}: ${card ? 'a card with no question or result' : 'no card on reload'} (${events.map((e) => e.type).join(', ')})`)
    const response = await fetch(`${url}?conversation=${seen.conversation.id}`, { headers: { authorization: `Bearer ${seen.conversation.secret}` } })
    const booking = answerOf(seen, (await response.json()) as { messages: unknown[]; events: ChatStreamEvent[] })
    if (booking) bookings.push(booking)
  }
  expect(stuck).toEqual([])
  // Claims of calls that never got a record lapse within a lease: the counts are the held calls.
  await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 2))
  const { held, unfinished } = await counts()
  expect(held).toEqual(unfinished)
  // Every question answered on one instance, killed while the answers run their steps; the
  // answers a kill cut off are resent (to any instance) until taken.
  const answering = live[0]!
  for (const booking of bookings) void sendAnswer(answering.url, booking)
  await whenRunning(store, bookings)
  await answering.kill()
  live[0] = await spawnCrashServer(storeArg, ledger, LEASE_MS)
  servers.push(live[0])
  await finishAll(store, bookings, () => live.map((s) => s.url), Date.now(), 60_000)
  // Each end reaches its conversation, whichever instance ended it: a reload shows the result.
  const resultless: string[] = []
  for (const [i, seen] of shown.filter((t) => bookings.some((b) => b.callId === t.shown)).entries()) {
    const events = await reloadUntilSettled(live[i % live.length]!.url, seen, Date.now() + 30_000, ['tool_result'])
    if (!events.some((e) => e.type === 'tool_result' && e.callId === seen.shown)) resultless.push(`${seen.shown}: ${events.map((e) => e.type).join(', ')}`)
  }
  expect(resultless).toEqual([])
  // One ticket per completed booking.
  const records = await Promise.all(bookings.map((b) => store.get(b.callId)))
  const booked = records.filter((r) => (r?.outcome as { result?: { booked?: boolean } } | undefined)?.result?.booked === true)
  expect(booked).toHaveLength(bookings.length)
  // Only these calls were answered: the ledger has exactly their tickets, however often a step cut by a kill ran again.
  expect(readLedger(ledger)).toHaveLength(booked.length)
}

describe('a server killed in the middle of a turn', () => {
  it(`SQLite: ${ROUNDS} rounds of ${TURNS_PER_ROUND} turns, killed 0–10 ms after the first tool card reached a page or at a random point of the turns — every card a page showed comes back with its question or result; counts equal held calls; one ticket per booking`, async () => {
    const db = join(dir, 'calls.db')
    const store = await createSqliteStore({ path: db })
    try {
      await killMidTurn({ storeArg: `sqlite:${db}`, store, instances: 1, ledger: join(dir, 'ledger.db'), counts: async () => sqliteCounts(db) })
    } finally {
      await store.close()
    }
  }, 240_000)

  describe('Redis, three instances', () => {
    let redis: RedisProcess
    beforeAll(async () => {
      redis = await startRedis()
    }, 60_000)
    afterAll(() => redis?.stop())

    it(`${ROUNDS} rounds of ${TURNS_PER_ROUND} turns, one instance killed each round — the same, the reloads and answers going to any instance`, async () => {
      const store = await createRedisStore({ url: redis.url, onWarning: () => {} })
      try {
        await killMidTurn({ storeArg: `redis:${redis.url}`, store, instances: 3, ledger: join(dir, 'ledger-redis.db'), counts: () => redisCounts(redis.url) })
      } finally {
        await store.close()
      }
    }, 240_000)
  })
})
