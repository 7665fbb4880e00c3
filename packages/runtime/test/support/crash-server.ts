/**
 * A chat server in its own process for the crash trial: `node --import tsx crash-server.ts
 * <store> <ledger> <leaseMs>`, where `<store>` is `sqlite:<path>`, `redis:<url>` or a
 * `postgres://` URL. It books
 * tickets with real, slow side effects — the ticket is written to a ledger inside its step, then
 * the step dawdles, so a kill lands in the middle of steps — and prints `listening <port>`.
 *
 * The same tool is served over MCP at `/mcp`.
 *
 * The ledger is keyed by the step's idempotency key, as a payment API would be: a step that ran
 * again after a crash (its result never recorded) adds a run to its row, not a second ticket.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import Database from 'libsql'
import { sleep } from 'effection'
import { z } from 'zod'
import { createMcpTool } from '../../src/index.ts'
import { createChatHandler, createPostgresStore, createRedisStore, createSqliteStore, toNodeListener, type CallStore } from '../../src/server.ts'
import { createMcpServer } from '../../src/mcp.ts'
import { createScriptedModel } from '../../src/testing.ts'

const [storeArg, ledgerPath, lease] = process.argv.slice(2) as [string, string, string]
const store: CallStore = storeArg.startsWith('redis:')
  ? await createRedisStore({ url: storeArg.slice('redis:'.length), onWarning: () => {} })
  : storeArg.startsWith('postgres:')
    ? await createPostgresStore({ connectionString: storeArg })
    : await createSqliteStore({ path: storeArg.slice('sqlite:'.length) })

const ledger = new Database(ledgerPath)
// The trial made the ledger (WAL, table) before starting any server: three servers starting at
// once on one file would race to switch its journal mode, which SQLite refuses with SQLITE_BUSY
// before any busy timeout applies.
ledger.exec('PRAGMA busy_timeout = 5000')
const issue = ledger.prepare('INSERT INTO tickets (key, route) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET runs = runs + 1')

const dawdle = () => sleep(Math.floor(Math.random() * 40))
const bookTicket = createMcpTool('book_ticket')
  .parameters(z.object({ route: z.string() }))
  .elicits({ confirm: z.object({ ok: z.boolean() }) })
  .execute(function* (params, ctx) {
    yield* ctx.step('reserve fare', function* () {
      // A "slow…" route holds its first step long enough to be killed in it, every time.
      yield* params.route.startsWith('slow') ? sleep(1_500) : dawdle()
      return { fare: `F-${params.route}` }
    })
    const answer = yield* ctx.elicit('confirm', { message: `Book ${params.route}?` })
    if (answer.action !== 'accept' || !answer.content.ok) return { booked: false }
    const ticket = yield* ctx.step('issue ticket', function* ({ idempotencyKey }) {
      issue.run(idempotencyKey, params.route)
      yield* dawdle() // the ticket exists; its step's result is not recorded yet
      return `TK-${params.route}`
    })
    yield* ctx.step('send receipt', function* () {
      yield* dawdle()
    })
    return { booked: true, ticket }
  })

const handler = createChatHandler({
  tools: [bookTicket],
  store,
  limits: { lockLeaseMs: Number(lease) },
  model: createScriptedModel({
    onUserMessage: [{ match: /ticket to (\S+)/, reply: (_t, m) => ({ toolCalls: [{ name: 'book_ticket', input: { route: m![1]! } }] }) }],
    onToolResult: (name, result) => `${name}: ${JSON.stringify(result)}`,
    fallback: 'ok',
  }),
})
// The same tool over MCP (Streamable HTTP, both protocol generations) at /mcp, on the same store.
const mcp = createMcpServer({ name: 'crash', version: '1.0.0', tools: [bookTicket], store, limits: { lockLeaseMs: Number(lease) } }).createHandler()
const chat = toNodeListener(handler)
// Recovery says what it took over; the trial counts it from the store, so the line is not needed here.
console.info = () => {}
const server = createServer((req, res) => void (req.url?.startsWith('/mcp') ? mcp.node(req, res) : chat(req, res)))
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`))
