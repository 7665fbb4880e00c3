/**
 * Durable calls with real processes and real stores: a chat server killed with SIGKILL while a
 * call waits, restarted on the same SQLite file; two instances sharing a real redis-server; a
 * tool whose code changed between suspend and resume. The ticket desk's ledger shows every
 * side effect, so "exactly once" is counted, not assumed.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { captureLogger } from '../support/capture-logger.ts'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suspend } from 'effection'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMcpTool, type McpMessage } from '../../src/index.ts'
import { type ChatHandler, type CallStore, createChatHandler, createRedisStore, createSqliteStore, toNodeListener } from '../../src/server.ts'
import { type ChatRequestBody, type ChatStreamEvent, readChatEvents } from '../../src/client.ts'
import { createScriptedModel, createTestClock, type TestClock } from '../../src/testing.ts'
import { openLedger, ticketDesk } from '../fixtures/ticket-desk.ts'
import { type RedisProcess, startRedis } from '../support/redis-server.ts'
import { type RedisCluster, startRedisCluster } from '../support/redis-cluster.ts'
import { until } from '../support/until.ts'

const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-durable-'))
let redis: RedisProcess
let cluster: RedisCluster
beforeAll(async () => {
  ;[redis, cluster] = await Promise.all([startRedis(), startRedisCluster(3)])
}, 90_000)
const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})
afterAll(async () => {
  await redis?.stop()
  await cluster?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const model = createScriptedModel({
  onUserMessage: [{ match: /ticket to (\w+)/, reply: (_t, m) => ({ toolCalls: [{ name: 'book_ticket', input: { route: m![1]! } }] }) }],
  onToolResult: (name, result) => `${name}: ${JSON.stringify(result)}`,
  fallback: 'ok',
})
const user = (text: string): McpMessage => ({ role: 'user', content: [{ type: 'text', text }] })

async function post(url: string, body: ChatRequestBody): Promise<ChatStreamEvent[]> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(res.status).toBe(200)
  const events: ChatStreamEvent[] = []
  for await (const e of readChatEvents(res.body!)) events.push(e)
  return events
}
const find = <T extends ChatStreamEvent['type']>(events: ChatStreamEvent[], type: T) => events.find((e): e is Extract<ChatStreamEvent, { type: T }> => e.type === type)

/** The question a response ended on, with what it takes to answer it from any instance. */
function pendingOf(events: ChatStreamEvent[]) {
  const asked = find(events, 'elicit_request')
  const call = find(events, 'tool_call')
  const state = find(events, 'conversation_state')
  if (!asked || !call?.token || !state) throw new Error(`no question in ${JSON.stringify(events.map((e) => e.type))}`)
  return {
    messages: state.messages,
    answer: (ok: boolean): ChatRequestBody => ({
      messages: state.messages,
      elicitResponses: [{ callId: asked.callId, elicitId: asked.request.id, token: call.token!, result: { action: 'accept', content: { ok } } }],
    }),
  }
}

/** An in-process chat instance on its own port with its own store connection. */
async function instance(store: CallStore, tool = ticketDesk(join(dir, 'ledger-shared.db'))): Promise<{ url: string; handler: ChatHandler }> {
  const handler = createChatHandler({ tools: [tool], model, store })
  const server: Server = createServer(toNodeListener(handler))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  cleanups.push(async () => {
    await handler.close()
    await new Promise((r) => server.close(r))
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`, handler }
}

describe('a chat server killed mid-call (SQLite)', () => {
  const script = fileURLToPath(new URL('../support/durable-chat-server.ts', import.meta.url))

  async function spawnServer(db: string): Promise<{ child: ChildProcess; url: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', script, db], { stdio: ['ignore', 'pipe', 'pipe'] })
    cleanups.push(() => child.exitCode === null && child.kill('SIGKILL'))
    let out = ''
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start in 60 s:\n${out}`)), 60_000)
      child.stdout!.on('data', (d: Buffer) => {
        out += d
        const m = /listening (\d+)/.exec(out)
        if (m) resolve((clearTimeout(timer), Number(m[1])))
      })
      child.stderr!.on('data', (d: Buffer) => (out += d))
      child.once('exit', (code) => reject((clearTimeout(timer), new Error(`the server exited (${code}):\n${out}`))))
    })
    return { child, url: `http://127.0.0.1:${port}/api/chat` }
  }

  it('is restarted on the same file; the answer completes the call and each step ran exactly once', async () => {
    const db = join(dir, 'restart.db')
    const first = await spawnServer(db)
    const asked = pendingOf(await post(first.url, { messages: [user('a ticket to OSL')] }))
    first.child.kill('SIGKILL')
    await new Promise((r) => first.child.once('exit', r))

    const second = await spawnServer(db)
    const done = await post(second.url, asked.answer(true))
    expect(find(done, 'tool_result')).toMatchObject({ toolName: 'book_ticket', result: { booked: true, ticket: 'TK-OSL' } })
    expect(find(done, 'error')).toBeUndefined()

    const ledger = openLedger(db)
    cleanups.push(() => ledger.close())
    expect(ledger.rows().map((r) => r.kind)).toEqual(['reserve', 'ticket'])
    // The same answer again, to the restarted server: refused, nothing runs twice.
    const again = await post(second.url, asked.answer(true))
    expect(find(again, 'call_not_found')?.message).toMatch(/already finished: it completed/)
    expect(ledger.rows()).toHaveLength(2)
  }, 180_000)
})

/**
 * Leases, on virtual time: two instances in this process on one SQLite file (each its own
 * connection) and one test clock. An instance "dies" as a killed process does: its store
 * connection goes first, so it neither renews nor releases anything, then its calls stop.
 */
describe('leases of running calls (SQLite, virtual time)', () => {
  let jobSteps = 0
  const longJob = createMcpTool('long_job')
    .elicits({})
    .execute(function* (_p, ctx) {
      yield* ctx.step('start job', function* () {
        jobSteps++
        return 'started'
      })
      yield* ctx.notify('job started', 1, 2)
      yield* suspend()
      return 'done'
    })
  const jobModel = createScriptedModel({ onUserMessage: [{ match: /long job/, reply: { toolCalls: [{ name: 'long_job', input: {} }] } }], fallback: 'ok' })

  async function onFile(db: string, clock: TestClock, lockLeaseMs: number) {
    const store = await createSqliteStore({ path: db, clock })
    const logged = captureLogger()
    const handler = createChatHandler({ tools: [longJob], model: jobModel, store, clock, limits: { lockLeaseMs }, logger: logged.logger })
    const server: Server = createServer(toNodeListener(handler))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    let dead = false
    const die = async () => {
      if (dead) return
      dead = true
      await store.close()
      await handler.close()
      server.closeAllConnections() // a killed process drops its connections
      await new Promise((r) => server.close(r))
    }
    cleanups.push(die)
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`, store, handler, die, logged: logged.entries }
  }

  /** Start "a long job" and read its turn until the job has stored its first step; and the request that cancels it. */
  async function startLongJob(url: string, reason: string) {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [user('a long job')] }) })
    let started: Extract<ChatStreamEvent, { type: 'tool_call' }> | undefined
    const events = readChatEvents(res.body!)
    for await (const e of events) {
      if (e.type === 'tool_call') started = e
      if (e.type === 'tool_progress') break
    }
    if (!started?.token) throw new Error('the long job did not start')
    // Ending on the assistant's message: the abort alone, no new model turn.
    const messages: McpMessage[] = [user('a long job'), { role: 'assistant', content: [{ type: 'text', text: 'Working on it.' }] }]
    return { started, abort: { messages, abort: { callId: started.callId, token: started.token, reason } } }
  }

  beforeEach(() => {
    jobSteps = 0
  })

  it('a call running when its instance died is refused as busy until its lease lapses, then taken over by another instance and run on from its journal', async () => {
    const db = join(dir, 'orphan.db')
    const clock = createTestClock()
    const lease = 30_000
    const first = await onFile(db, clock, lease)
    const { started, abort } = await startLongJob(first.url, 'cancelled by the user')
    expect(jobSteps).toBe(1)
    await first.die()

    const second = await onFile(db, clock, lease)
    // Its lock still held by the dead instance: refused as busy, nothing changed — up to the last
    // millisecond — and told honestly when to try again.
    expect(find(await post(second.url, abort), 'error')).toMatchObject({
      code: 'BUSY',
      message: expect.stringMatching(
        /is held by another server, which is running or answering it — or stopped while it did; its hold lapses within 30 s at the latest\. Try again then\./,
      ),
    })
    await clock.advance(lease - 1)
    expect(find(await post(second.url, abort), 'error')).toMatchObject({ code: 'BUSY' })
    expect((await second.store.get(started.callId))?.status).toBe('running')
    expect(second.handler.calls.size).toBe(0)
    // The lease lapses; the next scan (every half lease) takes the call over, by itself.
    await clock.advance(lease / 2)
    await until(() => second.handler.calls.size === 1)
    expect(second.logged.map((e) => e.message)).toContainEqual(
      expect.stringMatching(new RegExp(`recovered tool call ${started.callId} \\(long_job\\): its server \\(.+\\) stopped while running it`)),
    )
    // Replayed, not re-run: its recorded step ran once, on the first instance.
    expect(jobSteps).toBe(1)
    // It runs on the second instance now: a cancel there stops it at once.
    expect(find(await post(second.url, abort), 'call_aborted')).toMatchObject({ callId: started.callId })
    await vi.waitFor(async () => expect((await second.store.get(started.callId))?.outcome).toBeDefined(), { timeout: 10_000 })
    expect((await second.store.get(started.callId))?.outcome).toEqual({ status: 'aborted', reason: 'cancelled by the user', cancelled: true })
    // A second cancel finds it finished.
    expect(find(await post(second.url, abort), 'call_not_found')?.message).toMatch(/already finished: it was aborted/)
  }, 60_000)

  it('a call running on a live instance keeps its lock past many leases: another instance cannot take it over', async () => {
    const db = join(dir, 'live.db')
    const clock = createTestClock()
    const first = await onFile(db, clock, 3_000)
    const { started, abort } = await startLongJob(first.url, 'cancelled')
    const other = await onFile(db, clock, 3_000)
    for (let i = 0; i < 10; i++) {
      await clock.advance(1_500) // ten half-leases: the live instance renews every third of one
      expect(find(await post(other.url, abort), 'error'), `after ${(i + 1) * 1_500} ms`).toMatchObject({ code: 'BUSY' })
    }
    // The instance running it cancels it at once.
    expect(find(await post(first.url, abort), 'call_aborted')).toMatchObject({ callId: started.callId })
  }, 60_000)
})

describe.each(['a redis-server', 'a 3-node Redis Cluster'])('two instances sharing %s', (where) => {
  async function pair() {
    const url = where === 'a redis-server' ? redis.url : cluster.urls
    const [storeA, storeB] = await Promise.all([createRedisStore({ url }), createRedisStore({ url })])
    cleanups.push(
      () => storeA.close(),
      () => storeB.close(),
    )
    const ledgerPath = join(dir, `ledger-${Math.random().toString(36).slice(2)}.db`)
    const [a, b] = await Promise.all([instance(storeA, ticketDesk(ledgerPath)), instance(storeB, ticketDesk(ledgerPath))])
    const ledger = openLedger(ledgerPath)
    cleanups.push(() => ledger.close())
    return { a, b, ledger }
  }

  it('a call started on A is answered on B; its last answer replayed on A or B completes nothing again', async () => {
    const { a, b, ledger } = await pair()
    const asked = pendingOf(await post(a.url, { messages: [user('a ticket to BER')] }))
    const done = await post(b.url, asked.answer(true))
    expect(find(done, 'tool_result'), JSON.stringify(find(done, 'error'))).toMatchObject({ result: { booked: true, ticket: 'TK-BER' } })
    for (const at of [a, b]) {
      const replay = await post(at.url, asked.answer(true))
      expect(find(replay, 'call_not_found')?.message).toMatch(/already finished: it completed/)
      expect(find(replay, 'tool_result')).toBeUndefined()
    }
    expect(ledger.rows().map((r) => r.kind)).toEqual(['reserve', 'ticket'])
  }, 60_000)

  it('a call waiting on A is cancelled from B; A then refuses its answer as finished and drops its copy', async () => {
    const { a, b, ledger } = await pair()
    const asked = pendingOf(await post(a.url, { messages: [user('a ticket to OSL')] }))
    const call = asked.answer(true).elicitResponses![0]!
    const cancelled = await post(b.url, { messages: asked.messages, abort: { callId: call.callId, token: call.token } })
    expect(find(cancelled, 'tool_result')).toMatchObject({
      toolName: 'book_ticket',
      isError: true,
      cancelled: true,
      result: 'The tool call was cancelled: the user stopped it. Already done before it stopped (not undone): "reserve fare" (its result: {"fareId":"F-OSL","price":120}).',
      // The page shows it under "Cancelled": the fare stays reserved.
      alreadyDone: 'Already done before it stopped (not undone): "reserve fare" (its result: {"fareId":"F-OSL","price":120}).',
    })
    const late = await post(a.url, asked.answer(true))
    expect(find(late, 'call_not_found')?.message).toMatch(/already finished: it was aborted: the user stopped it/)
    expect(a.handler.calls.size).toBe(0)
    expect(ledger.rows().map((r) => r.kind)).toEqual(['reserve'])
  }, 60_000)

  it('of two concurrent answers to one call on two instances exactly one advances it', async () => {
    const { a, b, ledger } = await pair()
    const asked = pendingOf(await post(a.url, { messages: [user('a ticket to ROM')] }))
    const results = await Promise.all([post(a.url, asked.answer(true)), post(b.url, asked.answer(true))])
    const completed = results.filter((events) => find(events, 'tool_result'))
    expect(completed).toHaveLength(1)
    const loser = results.find((events) => !find(events, 'tool_result'))!
    const refusal = find(loser, 'elicit_refused') ?? find(loser, 'call_not_found')
    expect(refusal?.message).toMatch(/being answered by another request|is held by another server, which is running or answering it|already finished/)
    expect(ledger.rows().map((r) => r.kind)).toEqual(['reserve', 'ticket'])
  }, 60_000)
})

describe('a tool whose code changed between suspend and resume', () => {
  it('fails cleanly with JournalDivergenceError: the person is told to start again, the details go to the log', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    cleanups.push(() => logged.mockRestore())
    const store = await createSqliteStore({ path: join(dir, 'diverge.db') })
    cleanups.push(() => store.close())
    const ledgerPath = join(dir, 'ledger-diverge.db')
    const before = await instance(store, ticketDesk(ledgerPath, 'reserve fare'))
    const asked = pendingOf(await post(before.url, { messages: [user('a ticket to LIS')] }))
    await before.handler.close() // the deploy: the old code stops, its calls stay in the store
    const after = await instance(store, ticketDesk(ledgerPath, 'hold seat')) // the new code names its first step differently
    const events = await post(after.url, asked.answer(true))
    const result = find(events, 'tool_result')
    expect(result).toMatchObject({ toolName: 'book_ticket', isError: true })
    expect(result!.result).toBe("This request was started before the app was updated and can't continue. Please start it again.")
    expect(logged.mock.calls.map((c) => String(c[0]))).toContainEqual(
      expect.stringMatching(/cannot resume: its journal has step "reserve fare" \(#1\) where the tool now reaches step "hold seat" \(#1\)/),
    )
    const ledger = openLedger(ledgerPath)
    cleanups.push(() => ledger.close())
    expect(ledger.rows().map((r) => r.kind)).toEqual(['reserve'])
    // The call is over for good: a second try is refused as finished.
    const second = await post(after.url, asked.answer(true))
    expect(find(second, 'call_not_found')?.message).toMatch(/already finished: it failed/)
  }, 60_000)

  it('a change behind ctx.patched keeps calls in flight running the old way, and new calls take the new one', async () => {
    const store = await createSqliteStore({ path: join(dir, 'patched.db') })
    cleanups.push(() => store.close())
    const ledgerPath = join(dir, 'ledger-patched.db')
    const before = await instance(store, ticketDesk(ledgerPath))
    const old = pendingOf(await post(before.url, { messages: [user('a ticket to OSL')] }))
    await before.handler.close() // the deploy
    const after = await instance(store, ticketDesk(ledgerPath, 'reserve fare', { holdSeatFirst: true }))
    // The call started before the change completes on the new code, the old way: no seat held.
    expect(find(await post(after.url, old.answer(true)), 'tool_result')).toMatchObject({ result: { booked: true, ticket: 'TK-OSL' } })
    // A call started after it holds a seat first; resumed on another instance of the new code,
    // its replay takes the same path (the choice is in its journal) and runs nothing twice.
    const fresh = pendingOf(await post(after.url, { messages: [user('a ticket to BER')] }))
    const other = await instance(store, ticketDesk(ledgerPath, 'reserve fare', { holdSeatFirst: true }))
    expect(find(await post(other.url, fresh.answer(true)), 'tool_result')).toMatchObject({ result: { booked: true, ticket: 'TK-BER' } })
    const ledger = openLedger(ledgerPath)
    cleanups.push(() => ledger.close())
    expect(ledger.rows().map((r) => r.kind)).toEqual(['reserve', 'ticket', 'hold', 'reserve', 'ticket'])
  }, 60_000)
})
