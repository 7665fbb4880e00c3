/**
 * A chat server in its own process for the waiting-calls benchmark: `node --expose-gc --import
 * tsx waiting-server.ts <redis URL, or several for a cluster> <warmCalls>`. Its tool reserves a
 * fare (a step) and asks to confirm; the client key is the `x-client` header, so one driver can be
 * many clients. `GET /heap` answers the heap in use after a full collection. Prints `listening <port>`.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createChatHandler, createRedisStore, toNodeListener } from '@mcp-bridge/runtime/server'
import { createScriptedModel } from '@mcp-bridge/runtime/testing'
import { bookFare } from './waiting-tool.ts'

const [urls, warm] = process.argv.slice(2) as [string, string]
const list = urls.split(',')
const store = await createRedisStore({ url: list.length > 1 ? list : list[0]!, onWarning: () => {} })
const book = bookFare
const handler = createChatHandler({
  tools: [book],
  store,
  clientKey: (request) => request.headers.get('x-client') ?? 'anonymous',
  limits: { warmCalls: Number(warm), maxActiveCalls: 1_000_000, maxCallsPerClient: 100_000 },
  model: createScriptedModel({
    onUserMessage: [{ match: /book (\S+)/, reply: (_t, m) => ({ toolCalls: [{ name: 'book', input: { route: m![1]! } }] }) }],
    onToolResult: () => 'ok',
    fallback: 'ok',
  }),
})
const chat = toNodeListener(handler)
const gc = (globalThis as { gc?: () => void }).gc!
const server = createServer((req, res) => {
  if (req.url !== '/heap') return chat(req, res)
  for (let i = 0; i < 3; i++) gc()
  res.end(JSON.stringify({ heapUsed: process.memoryUsage().heapUsed, warm: handler.calls.size }))
})
server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`))
