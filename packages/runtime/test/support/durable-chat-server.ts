/**
 * A chat server in its own process for restart tests: `node --import tsx durable-chat-server.ts
 * <db path> [lock lease ms]`. Calls are kept in a SQLite file; the ticket desk's ledger is in the
 * same file. "a long job" starts a call that runs for a minute after its first step. It prints
 * `listening <port>` once it serves on 127.0.0.1.
 */
import { createServer } from 'node:http'
import { sleep } from 'effection'
import { createMcpTool } from '../../src/index.ts'
import type { AddressInfo } from 'node:net'
import { createChatHandler, createSqliteStore, toNodeListener } from '../../src/server.ts'
import { createScriptedModel } from '../../src/testing.ts'
import { ticketDesk } from '../fixtures/ticket-desk.ts'

const path = process.argv[2]!
const lockLeaseMs = process.argv[3] ? Number(process.argv[3]) : undefined
const longJob = createMcpTool('long_job')
  .elicits({})
  .execute(function* (_p, ctx) {
    yield* ctx.step('start job', function* () {
      return 'started'
    })
    yield* ctx.notify('job started', 1, 2)
    yield* sleep(60_000)
    return 'done'
  })
const store = await createSqliteStore({ path })
const handler = createChatHandler({
  tools: [ticketDesk(path), longJob],
  store,
  ...(lockLeaseMs && { limits: { lockLeaseMs } }),
  model: createScriptedModel({
    onUserMessage: [
      { match: /ticket to (\w+)/, reply: (_t, m) => ({ toolCalls: [{ name: 'book_ticket', input: { route: m![1]! } }] }) },
      { match: /long job/, reply: { toolCalls: [{ name: 'long_job', input: {} }] } },
    ],
    onToolResult: (name, result) => `${name}: ${JSON.stringify(result)}`,
    fallback: 'ok',
  }),
})
const server = createServer(toNodeListener(handler))
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`))
