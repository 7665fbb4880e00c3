/**
 * A chat server in its own process for restart tests: `node --import tsx durable-chat-server.ts
 * <db path>`. Calls are kept in a SQLite file; the ticket desk's ledger is in the same file. It
 * prints `listening <port>` once it serves on 127.0.0.1.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createChatHandler, createSqliteStore, toNodeListener } from '../../src/server.ts'
import { createScriptedModel } from '../../src/testing.ts'
import { ticketDesk } from '../fixtures/ticket-desk.ts'

const path = process.argv[2]!
const store = await createSqliteStore({ path })
const handler = createChatHandler({
  tools: [ticketDesk(path)],
  store,
  model: createScriptedModel({
    onUserMessage: [{ match: /ticket to (\w+)/, reply: (_t, m) => ({ toolCalls: [{ name: 'book_ticket', input: { route: m![1]! } }] }) }],
    onToolResult: (name, result) => `${name}: ${JSON.stringify(result)}`,
    fallback: 'ok',
  }),
})
const server = createServer(toNodeListener(handler))
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`))
