/**
 * Chat figures: over loopback HTTP, requests per second and p50/p99 latency of resuming a
 * suspended tool call with an elicitation answer, at 1, 50 and 200 concurrent calls, for each
 * call store (memory; SQLite in a temp file; Redis when `redis-server` is installed, Postgres when
 * PostgreSQL is, each started on a free port). Each request resumes a call that elicits again, so every request is one full
 * resume (lock, record check) → tool step → journal write → next elicitation stored → response.
 * Then the latency one person sees on a server that holds 200 suspended calls: each of them is
 * answered once, one after another, on the instance that served its question (warm) and on a new
 * handler over the same store (cold: the call is replayed from its journal first). And what a
 * waiting call costs the store: its bytes, with 2,000 of them waiting (SQLite: the file and its
 * WAL; Redis: `used_memory`; Postgres: its tables and indexes on disk, each rewritten compact first).
 * Bounded: a fixed number of requests per level. BENCH_STORES=memory,sqlite limits the stores.
 */
import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { createMcpTool } from '@mcp-bridge/runtime'
import { readChatEvents, type ChatRequestBody, type ChatStreamEvent } from '@mcp-bridge/runtime/client'
import { type CallStore, createChatHandler, createMemoryStore, createPostgresStore, createRedisStore, createSqliteStore, toNodeListener } from '@mcp-bridge/runtime/server'
import { createScriptedModel } from '@mcp-bridge/runtime/testing'
import { z } from 'zod'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { Redis } from 'ioredis'
import pg from 'pg'
import { startPostgres } from '../../packages/runtime/test/support/postgres-server.ts'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const loop = createMcpTool('confirm_loop')
  .elicits({ next: z.object({ ok: z.boolean() }) })
  .execute(function* (_p, ctx) {
    for (let i = 0; ; i++) {
      const r = yield* ctx.elicit('next', { message: `Step ${i}?`, step: i })
      if (r.action !== 'accept') return i
    }
  })
const model = createScriptedModel({ onUserMessage: [{ match: /go/, reply: { toolCalls: [{ name: 'confirm_loop', input: {} }] } }] })
// Every session comes from this one loopback client: lift the per-client limit with the total.
const limits = { maxActiveCalls: 10_000, maxCallsPerClient: 10_000 }
let handler: ReturnType<typeof createChatHandler>
let url = ''
let floorUrl = ''
let activeStore: CallStore

type ElicitEvent = Extract<ChatStreamEvent, { type: 'elicit_request' }>
// node:http with one keep-alive agent rather than fetch: its connections are opened once and
// reused, so the figures measure the server, not the client's connection churn.
const agent = new Agent({ keepAlive: true, maxSockets: 512 })
function post(body: ChatRequestBody, target = url): Promise<ChatStreamEvent[]> {
  return new Promise((resolve, reject) => {
    const req = request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, async (res) => {
      try {
        const events: ChatStreamEvent[] = []
        for await (const e of readChatEvents(Readable.toWeb(res) as ReadableStream<Uint8Array>)) events.push(e)
        resolve(events)
      } catch (error) {
        reject(error)
      }
    })
    req.once('error', reject)
    req.end(JSON.stringify(body))
  })
}
const elicitOf = (events: ChatStreamEvent[]) => {
  const e = events.find((x): x is ElicitEvent => x.type === 'elicit_request')
  if (!e) throw new Error(`no elicitation in ${JSON.stringify(events).slice(0, 300)}`)
  return e
}
const tokenOf = (events: ChatStreamEvent[]) => {
  const call = events.find((x) => x.type === 'tool_call')
  if (call?.type !== 'tool_call' || !call.token) throw new Error(`no tool call token in ${JSON.stringify(events).slice(0, 300)}`)
  return call.token
}

type Session = { req: ElicitEvent; token: string; messages: ChatRequestBody['messages']; conversation?: ChatRequestBody['conversation'] }
/** `keep`: each session is a kept conversation (useChat({ id })), recorded on every request. */
function open(count: number, keep = false): Promise<Session[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const conversation = keep ? { id: randomBytes(16).toString('base64url'), secret: randomBytes(32).toString('base64url') } : undefined
      const events = await post({ messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }], ...(conversation && { conversation }) })
      const messages = events.find((e) => e.type === 'conversation_state')!.messages as ChatRequestBody['messages']
      return { req: elicitOf(events), token: tokenOf(events), messages, ...(conversation && { conversation }) }
    }),
  )
}
const answer = (s: Session): ChatRequestBody => ({
  messages: s.messages,
  ...(s.conversation && { conversation: s.conversation }),
  elicitResponses: [{ callId: s.req.callId, elicitId: s.req.request.id, token: s.token, result: { action: 'accept', content: { ok: true } } }],
})
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/** 200 suspended calls, each answered once in turn; `restart` first swaps in a new handler on the same store. */
async function suspended(count: number, restart?: () => Promise<void>) {
  const sessions = await open(count)
  await restart?.()
  const latencies: number[] = []
  for (const s of sessions) {
    const t0 = performance.now()
    s.req = elicitOf(await post(answer(s)))
    latencies.push(performance.now() - t0)
  }
  await Promise.all(sessions.map((s) => handler.calls.abort(s.req.callId, s.token, 'bench over')))
  latencies.sort((a, b) => a - b)
  console.log(
    `${count} suspended calls, each resumed once (${restart ? 'cold: a new handler replays it' : 'warm'}): p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms`,
  )
}

/** Every session resumed `requestsPerSession` times, in parallel loops (one per session); req/s and latencies. */
async function resumeLoops(sessions: Session[], requestsPerSession: number, target: string) {
  const latencies: number[] = []
  const start = performance.now()
  await Promise.all(
    sessions.map(async (s) => {
      for (let i = 0; i < requestsPerSession; i++) {
        const t0 = performance.now()
        const events = await post(answer(s), target)
        latencies.push(performance.now() - t0)
        s.req = elicitOf(events)
      }
    }),
  )
  const seconds = (performance.now() - start) / 1000
  latencies.sort((a, b) => a - b)
  return { perSecond: latencies.length / seconds, latencies }
}

/**
 * `floor`: also run the same loops against the no-logic server on the same store, alternately
 * (floor, mcp-bridge, floor, mcp-bridge), and print the ratio of the medians.
 */
async function level(concurrency: number, requestsPerSession: number, { print = true, keep = false, floor = false } = {}) {
  // Open the sessions (not timed), then resume them all in parallel loops.
  const sessions = await open(concurrency, keep)
  if (floor) await copyForFloor(activeStore, sessions)
  const ours: Array<Awaited<ReturnType<typeof resumeLoops>>> = []
  const floors: number[] = []
  for (let round = 0; round < (floor ? 3 : 1); round++) {
    if (floor)
      floors.push(
        (
          await resumeLoops(
            sessions.map((s) => ({ ...s })),
            requestsPerSession,
            floorUrl,
          )
        ).perSecond,
      )
    ours.push(await resumeLoops(sessions, requestsPerSession, url))
  }
  await Promise.all(sessions.map((s) => handler.calls.abort(s.req.callId, s.token, 'bench over')))
  const best = [...ours].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(ours.length / 2)]!
  const pct = (p: number) => percentile(best.latencies, p)
  const floorRate = floors.length ? floors.sort((a, b) => a - b)[Math.floor(floors.length / 2)]! : undefined
  if (print)
    console.log(
      `resume over HTTP${keep ? ', conversation kept' : ''}, ${String(concurrency).padStart(3)} concurrent: ${Math.round(best.perSecond).toLocaleString('en').padStart(6)} req/s, p50 ${pct(50).toFixed(2)} ms, p99 ${pct(99).toFixed(2)} ms (${best.latencies.length} requests` +
        (floorRate
          ? `; median of 3 rounds, alternating with the no-logic server on the same store: ${Math.round(floorRate).toLocaleString('en')} req/s — ${(best.perSecond / floorRate).toFixed(2)}× of it, target ≥ 0.5×)`
          : ')'),
    )
}

/**
 * The floor: an HTTP server with no chat logic on the same store. Per request what a resume must
 * do at the least — read the body, read the call's record, write it back one revision on with the
 * answer in its journal — and a response of the same kind (the next question, as NDJSON).
 */
function noLogicListener(store: CallStore) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody
        const response = body.elicitResponses![0]!
        const record = (await store.get(floorId(response.callId)))!
        const entry = { kind: 'elicit' as const, name: 'next', seq: record.journal.length + 1, result: response.result }
        if (!(await store.update({ ...record, revision: record.revision + 1, updatedAt: Date.now(), journal: [...record.journal, entry] }))) throw new Error('the record moved')
        res.writeHead(200, { 'content-type': 'application/x-ndjson' })
        res.end(`${JSON.stringify({ type: 'elicit_request', callId: response.callId, toolName: record.tool, request: record.pending!.wire })}\n`)
      } catch (error) {
        res.writeHead(500).end(String(error))
      }
    })
  }
}

/** The floor's own copy of a call's record (the real call's record is the handler's alone). */
const floorId = (callId: string) => `floor-${callId}`
async function copyForFloor(store: CallStore, sessions: readonly Session[]): Promise<void> {
  for (const s of sessions) {
    const record = (await store.get(s.req.callId))!
    if (!(await store.create({ ...record, callId: floorId(s.req.callId), revision: 1 }))) throw new Error('the floor copy exists already')
  }
}

/** A redis-server on a free loopback port, or undefined when it is not installed. */
async function startRedis(): Promise<{ url: string; stop(): void } | undefined> {
  const port = 20000 + Math.floor(Math.random() * 20000)
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'ignore'] })
  const ready = await new Promise<boolean>((resolve) => {
    child.once('error', () => resolve(false))
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('Ready to accept') && resolve(true))
    setTimeout(() => resolve(false), 10_000)
  })
  if (!ready) return (child.kill(), undefined)
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill() }
}

const wanted = (process.env.BENCH_STORES ?? 'memory,sqlite,redis,postgres').split(',')
const dir = mkdtempSync(join(tmpdir(), 'bench-chat-'))
const redis = wanted.includes('redis') ? await startRedis() : undefined
const postgres = wanted.includes('postgres') ? await startPostgres().catch(() => undefined) : undefined
/** Each store, and how many bytes it holds now (memory: not measured). */
const stores: Array<readonly [string, () => Promise<CallStore>, (() => Promise<number>)?]> = [
  ['memory', async () => createMemoryStore()],
  [
    'sqlite',
    () => createSqliteStore({ path: join(dir, 'calls.db') }),
    async () => ['calls.db', 'calls.db-wal'].reduce((n, f) => n + (existsSync(join(dir, f)) ? statSync(join(dir, f)).size : 0), 0),
  ],
  ...(redis
    ? [
        [
          'redis',
          () => createRedisStore({ url: redis.url }),
          async () => {
            const client = new Redis(redis.url)
            const info = await client.info('memory')
            client.disconnect()
            return Number(/used_memory:(\d+)/.exec(info)![1])
          },
        ] as const,
      ]
    : []),
  ...(postgres
    ? [
        [
          'postgres',
          () => createPostgresStore({ connectionString: postgres.url }),
          async () => {
            const client = new pg.Client({ connectionString: postgres.url })
            await client.connect()
            // Rewritten compact first (tables and indexes), so the growth is the rows', not reused free space.
            const tables = await client.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'mcp_bridge'`)
            for (const { tablename } of tables.rows as Array<{ tablename: string }>) await client.query(`VACUUM FULL mcp_bridge."${tablename}"`)
            const { rows } = await client.query(
              `SELECT sum(pg_total_relation_size(c.oid))::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'mcp_bridge' AND c.relkind = 'r'`,
            )
            await client.end()
            return Number(rows[0].bytes)
          },
        ] as const,
      ]
    : []),
]

/** Bytes a waiting call costs the store: 2,000 parked, measured before and after. */
async function bytesPerWaitingCall(size: () => Promise<number>) {
  const before = await size()
  const sessions = await open(2_000)
  const after = await size()
  await Promise.all(sessions.map((s) => handler.calls.abort(s.req.callId, s.token, 'bench over')))
  console.log(`bytes per waiting call in the store (2,000 waiting): ${Math.round((after - before) / 2_000).toLocaleString('en')} B`)
}
/**
 * Keep-alive longer than the client agent keeps an idle socket: at Node's default (5 s) the server
 * closed sockets the agent was just reusing, and 200 clients met ECONNRESET.
 */
function listen(server: Server): Promise<string> {
  server.keepAliveTimeout = 120_000
  server.headersTimeout = 121_000
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`)))
}

try {
  for (const [name, create, size] of stores.filter(([n]) => wanted.includes(n))) {
    const store = (activeStore = await create())
    handler = createChatHandler({ tools: [loop], model, limits, store })
    const server = createServer(toNodeListener(handler))
    const floorServer = createServer(noLogicListener(store))
    url = await listen(server)
    floorUrl = await listen(floorServer)
    try {
      console.log(`store: ${name}`)
      await level(1, 300, { print: false }) // warm-up
      await level(1, 2000)
      for (const [concurrency, perSession] of [
        [50, 60],
        [200, 15],
      ] as const)
        await level(concurrency, perSession, { floor: true })
      // The same short calls with and without a kept conversation (two more writes per request).
      await level(1, 300)
      await level(1, 300, { keep: true })
      if (size) await bytesPerWaitingCall(size)
      await suspended(200)
      await suspended(200, async () => {
        await handler.close() // the calls stay in the store, superseded here
        handler = createChatHandler({ tools: [loop], model, limits, store })
        server.removeAllListeners('request')
        server.on('request', toNodeListener(handler))
      })
    } finally {
      await handler.close()
      await store.close()
      server.close()
      floorServer.close()
      server.closeAllConnections()
      floorServer.closeAllConnections()
    }
  }
  if (wanted.includes('redis') && !redis) console.log('store: redis — skipped (redis-server is not installed)')
  if (wanted.includes('postgres') && !postgres) console.log('store: postgres — skipped (PostgreSQL is not installed)')
} finally {
  agent.destroy()
  redis?.stop()
  await postgres?.stop()
  rmSync(dir, { recursive: true, force: true })
}
