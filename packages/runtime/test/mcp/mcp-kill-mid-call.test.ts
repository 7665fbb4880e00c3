/**
 * MCP calls whose server is killed (SIGKILL) mid-call. Two server processes share one SQLite file
 * (lease 1 s) behind one address (`failover-proxy.ts`, a balancer in miniature): when A dies the
 * address points at B, and the clients keep their URL. The official clients of both protocol
 * generations book tickets through it:
 *
 *   - 2025-11-25 (SDK 1.32 and SDK v2): the call's response stream dies with A; the client resumes
 *     it at B (`GET` with `Last-Event-ID`), which holds no such session and answers the request from
 *     the store (`session-resumption.ts`) — the result once the call is recovered and completes, or
 *     the call's end with what it had done when its question can no longer be asked. No client
 *     waits to its own timeout.
 *   - 2026-07-28 (SDK v2, rounds by hand): the client retries its last round, same state and
 *     answer, and gets the call's result; nothing runs twice.
 *
 * The ledger (written inside the ticket step, keyed by its idempotency key) holds one ticket per
 * booking a client was told of, and none for a call it was told ended.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'libsql'
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client'
import { Client as Client132 } from 'mcp-sdk-1-32/client/index.js'
import { StreamableHTTPClientTransport as Http132 } from 'mcp-sdk-1-32/client/streamableHttp.js'
import { ElicitRequestSchema as Elicit132 } from 'mcp-sdk-1-32/types.js'
import { afterEach, afterAll, describe, expect, it } from 'vitest'
import { randomDelay, readLedger, spawnCrashServer, type CrashServer } from '../support/crash-trial.ts'
import { startFailoverProxy, type FailoverProxy } from '../support/failover-proxy.ts'
import { textOf } from './support/mcp-clients.ts'
import { requester } from './support/tasks-wire.ts'

const LEASE_MS = 1_000
const PER_CLIENT = 3
/** A client's own bound on one tool call: far above what recovery takes, far below "hangs". */
const CALL_TIMEOUT_MS = 45_000
const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-mcp-kill-'))
const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

type Answer = () => Promise<void>
interface Booker {
  name: string
  book(route: string): Promise<CallToolResult>
}

/** Two instances on one SQLite file, A serving the address. */
async function twoInstances(name: string) {
  const db = join(dir, `${name}.db`)
  const ledger = join(dir, `${name}-ledger.db`)
  const a = await spawnCrashServer(`sqlite:${db}`, ledger, LEASE_MS)
  const b = await spawnCrashServer(`sqlite:${db}`, ledger, LEASE_MS)
  cleanups.push(
    () => a.kill(),
    () => b.kill(),
  )
  const origin = (s: CrashServer) => new URL(s.url).origin
  const proxy: FailoverProxy = await startFailoverProxy(origin(a))
  cleanups.push(() => proxy.close())
  const mcpUrl = new URL(`${proxy.url}/mcp`)
  return {
    db,
    ledger,
    mcpUrl,
    /** SIGKILL A; the address goes to B. */
    async killA() {
      await a.kill()
      proxy.target(origin(b))
    },
  }
}

/** SDK 1.32 speaking 2025-11-25; `answer` runs before each question is answered. */
async function sdk132(url: URL, answer: Answer): Promise<Booker> {
  const client = new Client132({ name: 'sdk-1.32', version: '1.0.0' }, { capabilities: { elicitation: {} } })
  client.setRequestHandler(Elicit132, async () => (await answer(), { action: 'accept', content: { ok: true } }))
  await client.connect(new Http132(url))
  cleanups.push(() => client.close())
  return { name: 'SDK 1.32', book: (route) => client.callTool({ name: 'book_ticket', arguments: { route } }, undefined, { timeout: CALL_TIMEOUT_MS }) as Promise<CallToolResult> }
}

/** SDK v2 pinned to 2025-11-25. */
async function sdkV2Legacy(url: URL, answer: Answer): Promise<Booker> {
  const client = new Client({ name: 'sdk-v2', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'legacy' } })
  client.setRequestHandler('elicitation/create', async () => (await answer(), { action: 'accept', content: { ok: true } }))
  await client.connect(new StreamableHTTPClientTransport(url))
  cleanups.push(() => client.close())
  return { name: 'SDK v2 (2025-11-25)', book: (route) => client.callTool({ name: 'book_ticket', arguments: { route } }, { timeout: CALL_TIMEOUT_MS }) as Promise<CallToolResult> }
}

interface InputRequired {
  resultType: 'input_required'
  inputRequests: Record<string, unknown>
  requestState: string
}

/**
 * SDK v2 on 2026-07-28, its rounds by hand: after the first round it answers; a round that fails
 * (its server died) or is refused while the dead server's hold lapses is sent again, unchanged.
 */
async function sdkV2Rounds(url: URL, answer: Answer): Promise<Booker> {
  const client = new Client({ name: 'sdk-v2-rounds', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } })
  await client.connect(new StreamableHTTPClientTransport(url))
  cleanups.push(() => client.close())
  const round = (route: string, extra: object) =>
    client.callTool({ name: 'book_ticket', arguments: { route }, ...extra }, { allowInputRequired: true, timeout: CALL_TIMEOUT_MS }) as Promise<CallToolResult | InputRequired>
  return {
    name: 'SDK v2 (2026-07-28)',
    async book(route) {
      const first = (await round(route, {})) as InputRequired
      const [key] = Object.keys(first.inputRequests)
      await answer()
      const retry = { inputResponses: { [key!]: { action: 'accept', content: { ok: true } } }, requestState: first.requestState }
      const deadline = Date.now() + CALL_TIMEOUT_MS
      for (;;) {
        try {
          const result = await round(route, retry)
          if (!('resultType' in result && result.resultType === 'input_required')) return result as CallToolResult
        } catch (error) {
          if (Date.now() > deadline) throw error
        }
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    },
  }
}

/**
 * The official requester (ext-tasks on SDK v2, 2026-07-28) with the Tasks extension: each booking
 * is a task it polls; its task requests are sent again when their connection dies with A.
 */
async function sdkV2Tasks(url: URL, answer: Answer): Promise<Booker> {
  const client = await requester(url, async () => (await answer(), { action: 'accept', content: { ok: true } }), { retryTaskMethodsForMs: CALL_TIMEOUT_MS })
  cleanups.push(() => client.close())
  return {
    name: 'ext-tasks (2026-07-28 Tasks)',
    async book(route) {
      const { outcome } = await (await client.session.callTool('book_ticket', { route })).settle()
      if (outcome.status !== 'completed') throw new Error(`the task ended ${outcome.status}${outcome.status === 'failed' ? `: ${outcome.error.message}` : ''}`)
      return outcome.result as CallToolResult
    },
  }
}

/** The routes the ledger holds a ticket for, one row per ticket step's idempotency key. */
function ticketRoutes(ledger: string): string[] {
  const file = new Database(ledger)
  try {
    file.exec('PRAGMA busy_timeout = 5000')
    return (file.prepare('SELECT route FROM tickets ORDER BY route').all() as Array<{ route: string }>).map((r) => r.route)
  } finally {
    file.close()
  }
}

/** The calls' records in the SQLite file: id → status. */
function statuses(db: string): Map<string, string> {
  const file = new Database(db)
  try {
    file.exec('PRAGMA busy_timeout = 5000')
    const rows = file.prepare('SELECT call_id, record FROM mcp_bridge_calls').all() as Array<{ call_id: string; record: string }>
    return new Map(rows.map((r) => [r.call_id, (JSON.parse(r.record) as { status: string }).status]))
  } finally {
    file.close()
  }
}

async function until(check: () => boolean, what: string, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('MCP calls when their server is killed mid-call (two instances on one SQLite file, one address)', () => {
  it('killed while the answers run their steps: every client gets its booking — a 2025-11-25 client on its resumed stream, a 2026-07-28 client by retrying its round, a Tasks client by polling on — one ticket each', async () => {
    const s = await twoInstances('mid-steps')
    let asked = 0
    const now: Answer = async () => void (asked += 1)
    const bookers = [await sdk132(s.mcpUrl, now), await sdkV2Legacy(s.mcpUrl, now), await sdkV2Rounds(s.mcpUrl, now), await sdkV2Tasks(s.mcpUrl, now)]
    const calls = bookers.flatMap((booker, b) =>
      Array.from({ length: PER_CLIENT }, (_, i) => {
        const route = `R${b}${i}`
        return booker.book(route).then(
          (result) => ({ booker: booker.name, route, result }),
          (error: Error) => ({ booker: booker.name, route, error: error.message }),
        )
      }),
    )
    // The kill lands in the middle of the ticket steps: once every question was asked (and is
    // being answered) and the first ticket is in the ledger, then 0–30 ms more.
    await until(() => asked === bookers.length * PER_CLIENT && readLedger(s.ledger).length > 0, 'every question was asked and a ticket step ran')
    await randomDelay(30)
    await s.killA()

    const ended = await Promise.all(calls)
    const booked: string[] = []
    for (const call of ended) {
      expect('result' in call, `${call.booker} ${call.route}: ${'error' in call ? call.error : ''}`).toBe(true)
      if (!('result' in call)) continue
      const { result } = call
      if (result.structuredContent) {
        expect(result.structuredContent).toEqual({ booked: true, ticket: `TK-${call.route}` })
        booked.push(call.route)
      } else {
        // Only a 2025-11-25 call whose answer had not reached A: its question died with the session.
        expect(call.booker).not.toMatch(/2026-07-28/)
        expect(textOf(result)).toMatch(/aborted: its question was asked in a session whose server stopped/)
      }
    }
    // The 2026-07-28 calls (rounds and tasks) all complete, and each call's ticket exists once whatever its client was told.
    expect(booked.filter((r) => r.startsWith('R2') || r.startsWith('R3'))).toHaveLength(2 * PER_CLIENT)
    expect(ticketRoutes(s.ledger)).toEqual(booked.sort())
    expect([...statuses(s.db).values()].filter((status) => status === 'running' || status === 'waiting')).toEqual([])
  }, 120_000)

  it('killed while the questions are open, and in a first step: a 2025-11-25 client is told its call ended and what it had done — it never waits to its timeout', async () => {
    const s = await twoInstances('open-questions')
    let asked = 0
    let release!: () => void
    const killed = new Promise<void>((resolve) => (release = resolve))
    // Each question is answered only after the kill: it was asked in A's session, which died.
    const afterKill: Answer = async () => {
      asked += 1
      await killed
    }
    const bookers = [await sdk132(s.mcpUrl, afterKill), await sdkV2Legacy(s.mcpUrl, afterKill)]
    const open = bookers.map((booker, b) => booker.book(`Q${b}`))
    await until(() => asked === bookers.length, 'both questions were asked')
    // And one call killed in its first step: recovered on B, it runs to its question, where it ends.
    const slow = bookers.map((booker, b) => booker.book(`slow${b}`))
    await until(() => [...statuses(s.db).values()].filter((status) => status === 'running').length === bookers.length, 'the slow calls are in their first step')
    await s.killA()
    release()

    const results = await Promise.all([...open, ...slow])
    for (const result of results) {
      expect(result.isError).toBe(true)
      expect(textOf(result)).toMatch(/^The tool call was aborted: its question was asked in a session whose server stopped .*; call the tool again/)
      // What it had done is said, with its result.
      expect(textOf(result)).toMatch(/reserve fare/)
    }
    // (A client left waiting would have rejected at its own timeout, failing the test above.)
    expect(ticketRoutes(s.ledger)).toEqual([])
    expect(new Set(statuses(s.db).values())).toEqual(new Set(['aborted']))
  }, 120_000)
})
