/**
 * A question the store did not take is never asked: when the write of a waiting call fails (the
 * store went away), the person sees no question they could not answer. The call ends (its
 * `finally` runs), the chat says STORE_UNAVAILABLE and the model gets the tool's error; over MCP
 * the tools/call ends with the tool's error instead of a question.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createMcpTool, type McpMessage } from '../../src/index.ts'
import { type CallStore, createChatHandler, createMemoryStore, toNodeListener } from '../../src/server.ts'
import { StoreUnavailableError } from '../../src/errors.ts'
import { type ChatStreamEvent, readChatEvents } from '../../src/client.ts'
import { createMcpServer } from '../../src/mcp.ts'
import { createScriptedModel } from '../../src/testing.ts'
import { connectClient } from '../mcp/support/mcp-clients.ts'

const finished: string[] = []
const ask = createMcpTool('ask_seat')
  .elicits({ seat: z.object({ seat: z.string() }) })
  .execute(function* (_p, ctx) {
    try {
      const answer = yield* ctx.elicit('seat', { message: 'Which seat?' })
      return answer.action
    } finally {
      finished.push('finally')
    }
  })

/** The memory store, except that it cannot store a waiting call: Redis went away just then. */
function storeThatLosesQuestions(): CallStore {
  const store = createMemoryStore()
  const refuse = (record: { status: string }) => record.status === 'waiting'
  return {
    ...store,
    create: (record) => (refuse(record) ? Promise.reject(new StoreUnavailableError('redis', 'redis://127.0.0.1:6390', new Error('connect ECONNREFUSED'))) : store.create(record)),
    update: (record) => (refuse(record) ? Promise.reject(new StoreUnavailableError('redis', 'redis://127.0.0.1:6390', new Error('connect ECONNREFUSED'))) : store.update(record)),
  }
}

const servers: Server[] = []
const quiet = vi.spyOn(console, 'error').mockImplementation(() => {}) // the details go to the log
afterAll(() => quiet.mockRestore())
afterEach(async () => {
  finished.length = 0
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r))
})

describe('a question the store did not take', () => {
  it('is not shown in the chat: STORE_UNAVAILABLE, the tool error for the model, the call ended', async () => {
    const model = createScriptedModel({ onUserMessage: [{ match: /seat/, reply: { toolCalls: [{ name: 'ask_seat', input: {} }] } }], onToolResult: () => 'Sorry.' })
    const chat = createChatHandler({ tools: [ask], model, store: storeThatLosesQuestions() })
    const server = createServer(toNodeListener(chat))
    servers.push(server)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const user: McpMessage = { role: 'user', content: [{ type: 'text', text: 'pick my seat' }] }
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [user] }),
    })
    const events: ChatStreamEvent[] = []
    for await (const e of readChatEvents(res.body!)) events.push(e)

    expect(events.filter((e) => e.type === 'elicit_request')).toEqual([])
    expect(events.find((e) => e.type === 'error')).toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: 'ask_seat could not go on: its question could not be saved. The server could not reach its storage just now. Try again in a moment.',
    })
    expect(JSON.stringify(events)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1:6390/) // the store's address stays in the log
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ toolName: 'ask_seat', isError: true })
    expect(finished).toEqual(['finally'])
    expect(chat.calls.size).toBe(0)
    await chat.close()
  })

  it('is not asked over MCP either: the tools/call ends with the tool error', async () => {
    const server = createMcpServer({ name: 'outage', version: '1.0.0', tools: [ask], store: storeThatLosesQuestions() })
    const client = await connectClient(server, '2025-11-25', { capabilities: { elicitation: { form: {} } } })
    try {
      const result = await client.call('ask_seat', {})
      expect(result.isError).toBe(true)
      expect(JSON.stringify(result.content)).toMatch(/could not go on: its question could not be saved, so it was not asked\. The server could not reach its storage just now/)
      expect(JSON.stringify(result.content)).not.toMatch(/ECONNREFUSED|6390/)
      expect(client.received.filter((r) => r.kind === 'elicit')).toEqual([])
      expect(finished).toEqual(['finally'])
      expect(server.suspendedCalls).toBe(0)
    } finally {
      await client.close()
      await server.close()
    }
  })
})
