/**
 * The random-kill trial, shared by the test (`crash-trial.test.ts`) and the benchmark
 * (`scripts/bench/recovery.bench.ts`): chat servers in child processes (`crash-server.ts`) over
 * one store; each round starts bookings up to their question, sends every answer at once, and
 * kills one server with SIGKILL at a random moment while the answers run their steps. Then a
 * client does what a client does — re-sends an answer that never arrived — while the surviving
 * or restarted servers recover the calls that were running; the round ends when every call has
 * ended. Bounded: a fixed number of rounds and calls, and a time limit on each wait.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import Database from 'libsql'
import type { CallStore } from '../../src/server.ts'
import { type ChatRequestBody, type ChatStreamEvent, readChatEvents } from '../../src/client.ts'

const script = fileURLToPath(new URL('./crash-server.ts', import.meta.url))

export interface CrashServer {
  url: string
  child: ChildProcess
  kill(): Promise<void>
}

/** Make the ledger file once, in this process, before any server opens it (see crash-server.ts). */
function prepareLedger(path: string): void {
  const db = new Database(path)
  try {
    db.exec(`PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL;
      CREATE TABLE IF NOT EXISTS tickets (key TEXT PRIMARY KEY, route TEXT NOT NULL, runs INTEGER NOT NULL DEFAULT 1)`)
  } finally {
    db.close()
  }
}

export async function spawnCrashServer(store: string, ledgerPath: string, leaseMs: number): Promise<CrashServer> {
  prepareLedger(ledgerPath)
  const child = spawn(process.execPath, ['--import', 'tsx', script, store, ledgerPath, String(leaseMs)], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the crash server did not start in 60 s:\n${out}`)), 60_000)
    child.stdout!.on('data', (d: Buffer) => {
      out += d
      const m = /listening (\d+)/.exec(out)
      if (m) resolve((clearTimeout(timer), Number(m[1])))
    })
    child.stderr!.on('data', (d: Buffer) => (out += d))
    child.once('exit', (code) => reject((clearTimeout(timer), new Error(`the crash server exited (${code}):\n${out}`))))
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  return {
    url: `http://127.0.0.1:${port}/api/chat`,
    child,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}

export interface Booking {
  callId: string
  /** The request that answers its question (accept), as a client would send it again. */
  answer: ChatRequestBody
}

async function post(url: string, body: ChatRequestBody, timeoutMs = 30_000): Promise<ChatStreamEvent[]> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) })
  const events: ChatStreamEvent[] = []
  for await (const e of readChatEvents(response.body!)) events.push(e)
  return events
}

/** Start a booking on `url` and read its turn up to the question. */
export async function startBooking(url: string, route: string): Promise<Booking> {
  const messages = [{ role: 'user' as const, content: [{ type: 'text' as const, text: `a ticket to ${route}` }] }]
  const events = await post(url, { messages })
  const call = events.find((e) => e.type === 'tool_call')
  const asked = events.find((e) => e.type === 'elicit_request')
  const state = events.find((e) => e.type === 'conversation_state')
  if (call?.type !== 'tool_call' || asked?.type !== 'elicit_request' || state?.type !== 'conversation_state' || !call.token) {
    throw new Error(`booking ${route} did not ask: ${JSON.stringify(events.map((e) => e.type))}`)
  }
  return {
    callId: call.callId,
    answer: {
      messages: state.messages,
      elicitResponses: [{ callId: call.callId, elicitId: asked.request.id, token: call.token, result: { action: 'accept', content: { ok: true } } }],
    },
  }
}

/** Send an answer; the response may be cut by a kill (that is the point), so nothing is read from it. */
export function sendAnswer(url: string, booking: Booking): Promise<void> {
  return post(url, booking.answer, 60_000).then(
    () => undefined,
    () => undefined,
  )
}

/**
 * Wait until every booking has ended in the store, re-sending the answer of a call still waiting
 * (its answer never reached a server before the kill) to a live server, as its client would.
 * Resolves with when each call ended (ms after `since`).
 */
export async function finishAll(store: CallStore, bookings: readonly Booking[], liveUrls: () => readonly string[], since: number, limitMs = 60_000): Promise<Map<string, number>> {
  const ended = new Map<string, number>()
  const resent = new Map<string, number>()
  const deadline = Date.now() + limitMs
  for (let turn = 0; ended.size < bookings.length; turn++) {
    if (Date.now() > deadline) {
      const open = await Promise.all(bookings.filter((b) => !ended.has(b.callId)).map(async (b) => `${b.callId}: ${(await store.get(b.callId))?.status}`))
      throw new Error(`not every call ended within ${limitMs} ms: ${open.join(', ')}`)
    }
    for (const booking of bookings) {
      if (ended.has(booking.callId)) continue
      const record = await store.get(booking.callId)
      if (record?.outcome) ended.set(booking.callId, Date.now() - since)
      else if (record?.status === 'waiting' && Date.now() - (resent.get(booking.callId) ?? 0) > 1_000) {
        resent.set(booking.callId, Date.now())
        const urls = liveUrls()
        void sendAnswer(urls[turn % urls.length]!, booking)
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return ended
}

/** The tickets in the ledger: one row per idempotency key, with how many times its step ran. */
export function readLedger(path: string): Array<{ key: string; runs: number }> {
  const db = new Database(path)
  try {
    db.exec('PRAGMA busy_timeout = 5000')
    return db.prepare('SELECT key, runs FROM tickets ORDER BY key').all() as Array<{ key: string; runs: number }>
  } finally {
    db.close()
  }
}

export const randomDelay = (maxMs: number) => new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * maxMs)))

/**
 * The moment to kill: once a call of `bookings` is running a step (polled, up to 2 s — on a busy
 * machine the answers may take a while to arrive), then a random 0–`jitterMs` more. So kills
 * land in the middle of steps every round, at a random point of them.
 */
export async function whenRunning(store: CallStore, bookings: readonly Booking[], jitterMs = 60): Promise<void> {
  const deadline = Date.now() + 2_000
  while (Date.now() < deadline) {
    const records = await Promise.all(bookings.map((b) => store.get(b.callId)))
    if (records.some((r) => r?.status === 'running')) break
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  await randomDelay(jitterMs)
}
