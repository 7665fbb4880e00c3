/**
 * Hardening rounds 2 and 3 (issues 28, 47): an ordinary client's success rate and latency while
 * an attack runs against the built app server (`serveApp`, as `node dist/server/index.js` runs it,
 * with its defaults — the rate limit on), each beside a baseline measured in the same run:
 *
 *   - many addresses: 60 clients each parking 20 calls that never get an answer (1,200 > the
 *     1,000-call cap);
 *   - one call per address: 200 addresses each holding one waiting call at `maxActiveCalls: 200`;
 *   - big turns: one client (a process of its own) sending 60 turns of 1 MB into one kept
 *     conversation, on SQLite (the playground's store), while the ordinary client takes plain turns;
 *   - legacy sessions: 100 addresses × 10 MCP `initialize` (2025-11-25) that never DELETE, past
 *     the 1,000-session cap, while the ordinary client initializes its own session;
 *   - one-address flood: 40 requests at a time of MCP `tools/list` from one address;
 *   - rate flood: 200 addresses posting as fast as they can (`rateLimit` 20/s each);
 *   - slow sockets: 2,000 connections that send half their headers and stop.
 *
 * Attackers use their own loopback addresses (127.0.2.x and up), so per-address and per-network
 * rules apply to them as they would on a network. Bounded: fixed counts, each attack stops itself.
 */
import { request, type Agent } from 'node:http'
import { connect, type Socket } from 'node:net'
import { createMcpTool } from '@mcp-bridge/runtime'
import { readChatEvents, type ChatStreamEvent } from '@mcp-bridge/runtime/client'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createMcpServer } from '@mcp-bridge/runtime/mcp'
import { createAppServer, createChatHandler, createSqliteStore, serveApp, type CallStore, type ServeAppOptions } from '@mcp-bridge/runtime/server'
import { createScriptedModel } from '@mcp-bridge/runtime/testing'
import { z } from 'zod'

const hold = createMcpTool('hold')
  .elicits({ go: z.object({ ok: z.boolean() }) })
  .execute(function* (_p, ctx) {
    return yield* ctx.elicit('go', { message: 'Go?' })
  })
const model = createScriptedModel({ onUserMessage: [{ match: /^hold$/, reply: { toolCalls: [{ name: 'hold', input: {} }] } }], fallback: 'ok' })

/** POST `body` to `url` from `localAddress`; resolves with the status and the response text. */
function send(url: URL, body: string, localAddress: string, headers: Record<string, string> = {}, agent?: Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', localAddress, agent, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** POST a chat body from `localAddress`; resolves with the events (or a refusal's status). */
async function post(url: URL, body: unknown, localAddress = '127.0.0.1', agent?: Agent): Promise<{ status: number; events: ChatStreamEvent[] }> {
  const { status, text } = await send(url, JSON.stringify(body), localAddress, {}, agent)
  const events: ChatStreamEvent[] = []
  if (status !== 200) return { status, events }
  const stream = new Blob([text]).stream()
  for await (const e of readChatEvents(stream)) events.push(e)
  return { status, events }
}

const MCP_HEADERS = { accept: 'application/json, text/event-stream' }
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
})

const holdTurn = { messages: [{ role: 'user', content: [{ type: 'text', text: 'hold' }] }] }
const attacker = (i: number) => `127.0.${2 + Math.floor(i / 250)}.${2 + (i % 250)}`

/** What the ordinary client does each time: a chat turn that asks it a question (answered by ending it), or an MCP session. */
type Ordinary = 'hold turn' | 'plain turn' | 'mcp session'

interface Attack {
  run: (app: URL) => Promise<void>
  options?: Partial<ServeAppOptions>
  limits?: { maxActiveCalls?: number }
  store?: 'sqlite'
  ordinary?: Ordinary
  paceMs?: number
  /** The attack fills the server before the ordinary client begins (what it leaves held is the attack), rather than running beside it. */
  fillFirst?: boolean
}

async function scenario(attack: Attack['run'] | undefined, setup: Omit<Attack, 'run'>) {
  const dir = setup.store === 'sqlite' ? mkdtempSync(join(tmpdir(), 'attacks-')) : undefined
  const store: CallStore | undefined = dir ? await createSqliteStore({ path: join(dir, 'calls.db') }) : undefined
  // A cap of 1,000 held calls (the default is 10,000), so the many-addresses attack goes past it.
  const handler = createChatHandler({ tools: [hold], model, ...(store && { store }), limits: { maxActiveCalls: 1_000, ...setup.limits } })
  const mcp = createMcpServer({ name: 'attacks', version: '1.0.0', tools: [hold] })
  const served = await serveApp(createAppServer({ chat: handler, mcp: mcp.createHandler(), close: () => mcp.close() }), {
    port: 0,
    handleSignals: false,
    // NO_RATE_LIMIT=1: what the default rate limit buys, measured without it.
    ...(process.env.NO_RATE_LIMIT && { rateLimit: false as const }),
    ...setup.options,
  })
  const app = new URL(served.url)
  const chatUrl = new URL('/api/chat', app)
  const running = attack ? attack(app).catch(() => undefined) : Promise.resolve()
  const ordinary: Array<{ ok: boolean; ms: number }> = []
  if (setup.fillFirst) await running
  else await new Promise((r) => setTimeout(r, attack ? 300 : 0)) // the attack under way first
  for (let i = 0; i < 100; i++) {
    const t0 = performance.now()
    let ok = false
    try {
      if (setup.ordinary === 'mcp session') {
        ok = (await send(new URL('/mcp', app), initialize, '127.0.0.1', MCP_HEADERS)).status === 200
      } else if (setup.ordinary === 'plain turn') {
        const answer = await post(chatUrl, {
          messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
          conversation: { id: `ordinary-${i}-conversation`, secret: 'o'.repeat(43) },
        })
        ok = answer.events.some((e) => e.type === 'text_delta')
      } else {
        ok = (await post(chatUrl, holdTurn)).events.some((e) => e.type === 'elicit_request')
      }
    } catch {
      ok = false
    }
    ordinary.push({ ok, ms: performance.now() - t0 })
    // A person finishing frees the place: the ordinary client's calls do not pile up.
    for (const c of handler.calls.list()) if (c.client.endsWith('127.0.0.1')) await handler.calls.get(c.callId)?.host.abort('done')
    if (setup.paceMs) await new Promise((r) => setTimeout(r, setup.paceMs))
  }
  await running
  await served.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
  const ms = ordinary.map((o) => o.ms).sort((a, b) => a - b)
  return { okRate: ordinary.filter((o) => o.ok).length / ordinary.length, p50: ms[50]!, p99: ms[98]! }
}

/** An attack of `support/attacker.mjs`, from a process of its own; resolves when it is done. */
async function inOwnProcess(mode: string, app: URL, a: number, b: number) {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./support/attacker.mjs', import.meta.url)), mode, app.href, String(a), String(b)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let answered = ''
  child.stdout.on('data', (chunk: Buffer) => (answered += chunk))
  await once(child, 'exit')
  if (process.env.DEBUG) console.log(`  ${mode} answered: ${answered.trim()}`)
}

/** `count` requests from `from(i)`, `concurrency` at a time. */
async function flood(count: number, concurrency: number, one: (i: number) => Promise<unknown>) {
  for (let start = 0; start < count; start += concurrency) {
    await Promise.all(Array.from({ length: Math.min(concurrency, count - start) }, (_, k) => one(start + k).catch(() => undefined)))
  }
}

const attacks: Record<string, Attack> = {
  'many addresses (60 × 20 waiting calls)': {
    fillFirst: true,
    run: (app) => flood(1_200, 100, (i) => post(new URL('/api/chat', app), holdTurn, attacker(i % 60))),
  },
  'one call per address (200 at maxActiveCalls 200)': {
    limits: { maxActiveCalls: 200 },
    fillFirst: true,
    run: (app) => flood(200, 50, (i) => post(new URL('/api/chat', app), holdTurn, attacker(i))),
  },
  // The ordinary client paced (a turn every 50 ms), so its turns span the attack; the attacker in a process of its own.
  'big turns (60 × 1 MB into one conversation, SQLite)': {
    store: 'sqlite',
    ordinary: 'plain turn',
    paceMs: 50,
    run: (app) => inOwnProcess('big-turns', app, 60, 1_000_000),
  },
  'legacy sessions (100 addresses × 10 initialize)': {
    ordinary: 'mcp session',
    fillFirst: true,
    run: async (app) => {
      const answered: Record<number, number> = {}
      await flood(1_000, 50, async (i) => {
        const { status } = await send(new URL('/mcp', app), initialize, attacker(i % 100), MCP_HEADERS)
        answered[status] = (answered[status] ?? 0) + 1
      })
      if (process.env.DEBUG) console.log(`  the flood's initializes answered: ${JSON.stringify(answered)}`)
    },
  },
  'one-address flood (4,000 × tools/list, 40 at a time)': {
    ordinary: 'plain turn',
    paceMs: 20,
    run: (app) => inOwnProcess('tools-list', app, 4_000, 40),
  },
  // The ordinary client keeps to ~16 requests a second, under the limit; each attacker tries 50 at once.
  'rate flood (200 addresses, rateLimit 20/s each)': {
    options: { rateLimit: { requestsPerSecond: 20 } },
    paceMs: 60,
    run: async (app) => {
      for (let round = 0; round < 50; round++) {
        await Promise.all(Array.from({ length: 200 }, (_, i) => post(new URL('/api/chat', app), holdTurn, attacker(i)).catch(() => undefined)))
      }
    },
  },
  'slow sockets (2,000 half-sent headers)': {
    options: { headersTimeoutMs: 10_000 },
    run: async (app) => {
      const sockets: Socket[] = []
      for (let i = 0; i < 2_000; i++) {
        const socket = connect({ port: Number(app.port), host: '127.0.0.1', localAddress: attacker(i % 500) })
        socket.on('error', () => {})
        socket.write(`POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\n`)
        sockets.push(socket)
      }
      await new Promise((r) => setTimeout(r, 5_000))
      for (const s of sockets) s.destroy()
    },
  },
}

const fmt = (n: number) => `${n.toFixed(1)} ms`
const only = process.env.ATTACK
await scenario(undefined, {}) // warm-up
for (const [name, { run, ...setup }] of Object.entries(attacks)) {
  if (only && !name.includes(only)) continue
  const base = await scenario(undefined, setup)
  const attacked = await scenario(run, setup)
  console.log(
    `${name.padEnd(54)} ordinary client: ${(attacked.okRate * 100).toFixed(0)} % (alone ${(base.okRate * 100).toFixed(0)} %), ` +
      `p50 ${fmt(attacked.p50)} (${(attacked.p50 / base.p50).toFixed(1)}x of ${fmt(base.p50)}), p99 ${fmt(attacked.p99)} (${(attacked.p99 / base.p99).toFixed(1)}x)`,
  )
}
