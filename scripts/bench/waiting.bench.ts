/**
 * Waiting calls at scale (issue 35): park N calls (default 100,000; `BENCH_WAITING` sets it) from
 * 5,000 client keys over 3 chat servers (separate processes, default `warmCalls` 1,000) sharing
 * one Redis — a single primary with an append-only file, then a real 3-node Redis Cluster. Prints
 * the time to park, the heap each waiting call adds to the servers once their warm caches are full
 * (heap at N minus heap at 10,000, over the calls between), Redis bytes per call, answer p50/p99
 * of 1,000 random calls at 1k / 10k / N waiting, and, after kill -9 of one server, how long the
 * other two take to answer every call it had parked (none refused). Bounded: a fixed N.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { readChatEvents, type ChatRequestBody, type ChatStreamEvent } from '@mcp-bridge/runtime/client'
import { startRedis } from '../../packages/runtime/test/support/redis-server.ts'
import { startRedisCluster } from '../../packages/runtime/test/support/redis-cluster.ts'

const N = Number(process.env.BENCH_WAITING ?? 100_000)
const CHECKPOINTS = [1_000, 10_000, N].filter((n, i, all) => n <= N && all.indexOf(n) === i)
const CLIENTS = 5_000
const CONCURRENCY = 48
const script = join(import.meta.dirname, 'support', 'waiting-server.ts')

interface Server {
  url: string
  heapUrl: string
  child: ChildProcess
  kill(): Promise<void>
}
interface Waiting {
  callId: string
  server: number
  client: string
  answer: ChatRequestBody
}

async function spawnServer(redisUrls: readonly string[]): Promise<Server> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', script, redisUrls.join(','), '1000'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d
      const m = /listening (\d+)/.exec(out)
      if (m) resolve(Number(m[1]))
    })
    child.stderr!.on('data', (d: Buffer) => (out += d))
    child.once('exit', (code) => reject(new Error(`a server exited (${code}):\n${out}`)))
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  return {
    url: `http://127.0.0.1:${port}/api/chat`,
    heapUrl: `http://127.0.0.1:${port}/heap`,
    child,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}

async function post(url: string, body: ChatRequestBody, client: string): Promise<ChatStreamEvent[]> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client': client },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  })
  const events: ChatStreamEvent[] = []
  for await (const e of readChatEvents(response.body!)) events.push(e)
  return events
}

async function park(servers: readonly Server[], i: number): Promise<Waiting> {
  const server = i % servers.length
  const client = `client-${i % CLIENTS}`
  const events = await post(servers[server]!.url, { messages: [{ role: 'user', content: [{ type: 'text', text: `book R${i}` }] }] }, client)
  const call = events.find((e) => e.type === 'tool_call')
  const asked = events.find((e) => e.type === 'elicit_request')
  const state = events.find((e) => e.type === 'conversation_state')
  if (call?.type !== 'tool_call' || asked?.type !== 'elicit_request' || state?.type !== 'conversation_state' || !call.token)
    throw new Error(`call ${i} did not ask: ${JSON.stringify(events).slice(0, 400)}`)
  return {
    callId: call.callId,
    server,
    client,
    answer: {
      messages: state.messages,
      elicitResponses: [{ callId: call.callId, elicitId: asked.request.id, token: call.token, result: { action: 'accept', content: { ok: true } } }],
    },
  }
}

/** Answer a call on `url`; its latency, or an error naming what came back instead of the result. */
async function answer(url: string, w: Waiting): Promise<number> {
  const t = performance.now()
  const events = await post(url, w.answer, w.client)
  if (!events.some((e) => e.type === 'tool_result'))
    throw new Error(`call ${w.callId} was not completed: ${JSON.stringify(events.filter((e) => e.type === 'error' || e.type === 'call_not_found'))}`)
  return performance.now() - t
}

/** Run `work(i)` for i in [from, to), `concurrency` at a time. */
async function pool<T>(from: number, to: number, work: (i: number) => Promise<T>, concurrency = CONCURRENCY): Promise<T[]> {
  const results: T[] = []
  let next = from
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < to) {
        const i = next++
        results.push(await work(i))
      }
    }),
  )
  return results
}

const heapOf = async (servers: readonly Server[]) => {
  const heaps = await Promise.all(servers.map(async (s) => (await (await fetch(s.heapUrl)).json()) as { heapUsed: number; warm: number }))
  return { heap: heaps.reduce((sum, h) => sum + h.heapUsed, 0), warm: heaps.reduce((sum, h) => sum + h.warm, 0) }
}
const redisBytes = async (clients: readonly Redis[]) => {
  let total = 0
  for (const c of clients) total += Number(/used_memory:(\d+)/.exec(await c.info('memory'))![1])
  return total
}
const pct = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

async function scenario(label: string, urls: readonly string[]) {
  const raw = urls.map((u) => new Redis(u))
  const servers = await Promise.all([0, 1, 2].map(() => spawnServer(urls)))
  const baseRedis = await redisBytes(raw)
  const waiting: Waiting[] = []
  let parked = 0
  let parkMs = 0
  const heapAt = new Map<number, number>()
  for (const checkpoint of CHECKPOINTS) {
    const t0 = performance.now()
    const more = checkpoint - waiting.length
    waiting.push(...(await pool(parked, parked + more, (i) => park(servers, i))))
    parked += more
    parkMs += performance.now() - t0
    const { heap, warm } = await heapOf(servers)
    heapAt.set(checkpoint, heap)
    const perCallRedis = (await redisBytes(raw)) - baseRedis
    // 1,000 random waiting calls answered, each on a random server (a round-robin balancer).
    const picked = Array.from({ length: Math.min(1_000, waiting.length) }, () => waiting.splice(Math.floor(Math.random() * waiting.length), 1)[0]!)
    // Four people answering at once: what one of them waits, not the server's queue under a flood.
    const times = (await pool(0, picked.length, (i) => answer(servers[Math.floor(Math.random() * 3)]!.url, picked[i]!), 4)).sort((a, b) => a - b)
    console.log(
      `${label}, ${checkpoint.toLocaleString('en')} waiting: answer p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms (1,000 random calls, 4 at a time, any server); ` +
        `Redis ${Math.round(perCallRedis / checkpoint)} B per waiting call; servers' heap ${(heap / 2 ** 20).toFixed(0)} MiB with ${warm} warm generators`,
    )
  }
  const top = CHECKPOINTS.at(-1)!
  if (heapAt.has(10_000) && top > 10_000) {
    const marginal = (heapAt.get(top)! - heapAt.get(10_000)!) / (top - 10_000)
    console.log(
      `${label}: parked ${parked.toLocaleString('en')} calls in ${(parkMs / 1000).toFixed(0)} s (${Math.round(parked / (parkMs / 1000))}/s); heap per waiting call beyond the warm caches ${(marginal / 1024).toFixed(2)} KB (10,000 → ${top.toLocaleString('en')})`,
    )
  }
  // kill -9 of one server: every call it parked is answered on the other two.
  await servers[0]!.kill()
  const orphans = waiting.filter((w) => w.server === 0)
  const t0 = performance.now()
  let refused = 0
  await pool(0, orphans.length, (i) => answer(servers[1 + (i % 2)]!.url, orphans[i]!).catch(() => void refused++))
  console.log(
    `${label}: after kill -9 of one server, its ${orphans.length.toLocaleString('en')} waiting calls answered on the other two in ${((performance.now() - t0) / 1000).toFixed(1)} s; refused ${refused}`,
  )
  await Promise.all(servers.map((s) => s.kill()))
  for (const c of raw) c.disconnect()
}

const single = await startRedis()
try {
  await scenario('Redis (one primary, AOF)', [single.url])
} finally {
  await single.stop()
}
const cluster = await startRedisCluster(3)
try {
  await scenario('Redis Cluster (3 nodes)', cluster.urls)
} finally {
  await cluster.stop()
}
