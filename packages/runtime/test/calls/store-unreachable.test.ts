/**
 * A store that went away is one mapping on every surface: the browser and the model are told a
 * stable code and a sentence (`STORE_UNAVAILABLE`: "The server could not reach its storage…"),
 * never the store's address or its driver's words; the details go to the server's logger, with
 * the call's id. A real `redis-server`, stopped before the request.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createAiSdkBridge } from '../../src/ai-sdk.ts'
import { createMcpTool, type McpMessage } from '../../src/index.ts'
import { createMcpServer } from '../../src/mcp.ts'
import { type CallStore, createChatHandler, createRedisStore } from '../../src/server.ts'
import { type ChatStreamEvent, readChatEvents } from '../../src/client.ts'
import { createScriptedModel } from '../../src/testing.ts'
import { StoreUnavailableError } from '../../src/errors.ts'
import { keepingLogger } from './support/copies-fixture.ts'
import { connectClient } from '../mcp/support/mcp-clients.ts'
import { startRedis } from '../support/redis-server.ts'

const SENTENCE = 'The server could not reach its storage just now. Try again in a moment.'
const book = createMcpTool('book_seat')
  .parameters(z.object({ seat: z.string() }))
  .execute(function* (params) {
    return `booked ${params.seat}`
  })

const ends: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const end of ends.splice(0).reverse()) await end().catch(() => undefined)
})

/** A Redis store whose server has stopped (its address, with a password, is what must not leak). */
async function goneStore(): Promise<{ store: CallStore; port: number }> {
  const redis = await startRedis([])
  const store = await createRedisStore({ url: `redis://:hunter2@127.0.0.1:${redis.port}/0` }).catch(async () => createRedisStore({ url: redis.url }))
  ends.push(() => store.close())
  await redis.stop()
  return { store, port: redis.port }
}

function expectNoStoreWords(said: string, port: number): void {
  expect(said).not.toContain(String(port))
  expect(said).not.toMatch(/redis|127\.0\.0\.1|hunter2|ECONNREFUSED|retries/i)
}

describe('a store that went away, on every surface', () => {
  it('a chat turn: the tool card and the model get the sentence, the log gets the details with the call id', { timeout: 60_000 }, async () => {
    const { store, port } = await goneStore()
    const log = keepingLogger()
    const model = createScriptedModel({
      onUserMessage: [{ match: /book/, reply: { toolCalls: [{ name: 'book_seat', input: { seat: '4A' } }] } }],
      onToolResult: (_n, r) => `tool said: ${JSON.stringify(r)}`,
    })
    const chat = createChatHandler({ tools: [book], model, store, logger: log })
    ends.push(() => chat.close())
    const user: McpMessage = { role: 'user', content: [{ type: 'text', text: 'book 4A' }] }
    const response = await chat(
      new Request('http://127.0.0.1/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [user] }) }),
    )
    const events: ChatStreamEvent[] = []
    for await (const event of readChatEvents(response.body!)) events.push(event)
    const result = events.find((e) => e.type === 'tool_result')
    expect(result).toMatchObject({ toolName: 'book_seat', isError: true, result: expect.stringContaining(SENTENCE) })
    expectNoStoreWords(JSON.stringify(events), port)
    const callId = (result as Extract<ChatStreamEvent, { type: 'tool_result' }>).callId
    expect(log.lines).toContainEqual(expect.objectContaining({ level: 'error', message: expect.stringContaining(callId) }))
    // The details are in the log: the store's own error.
    expect(log.lines.find((line) => line.level === 'error')!.fields.err).toBeInstanceOf(StoreUnavailableError)
  })

  it('an MCP tools/call: the tool error is the sentence; the details go to the logger', { timeout: 60_000 }, async () => {
    const { store, port } = await goneStore()
    const log = keepingLogger()
    const server = createMcpServer({ name: 'gone', version: '1', tools: [book], store, logger: log })
    ends.push(() => server.close())
    const client = await connectClient(server, '2025-11-25')
    ends.push(() => client.close())
    const result = (await client.call('book_seat', { seat: '4A' })) as { isError?: boolean; content: Array<{ text?: string }> }
    expect(result.isError).toBe(true)
    expect(result.content[0]!.text).toContain(SENTENCE)
    expectNoStoreWords(JSON.stringify(result), port)
    expect(log.lines).toContainEqual(expect.objectContaining({ level: 'error', message: expect.stringContaining('book_seat') }))
  })

  it('an AI SDK tool call: the output the model and useChat read is the sentence', { timeout: 60_000 }, async () => {
    const { store, port } = await goneStore()
    const log = keepingLogger()
    const bridge = createAiSdkBridge({ tools: [book], store, logger: log })
    ends.push(() => bridge.close())
    const outputs: unknown[] = []
    for await (const output of bridge.tools().book_seat!.execute({ seat: '4A' }, { toolCallId: 'call-ai' })) outputs.push(output)
    expect(JSON.stringify(outputs.at(-1))).toContain(SENTENCE)
    expectNoStoreWords(JSON.stringify(outputs), port)
    expect(log.lines).toContainEqual(expect.objectContaining({ level: 'error', message: expect.stringContaining('call-ai') }))
  })

  it('a conversation read back (a reload): 503 with the sentence; the details go to the logger', { timeout: 60_000 }, async () => {
    const { store, port } = await goneStore()
    const log = keepingLogger()
    const chat = createChatHandler({ tools: [book], model: createScriptedModel({ fallback: 'ok' }), store, logger: log })
    ends.push(() => chat.close())
    const response = await chat(new Request('http://127.0.0.1/api/chat?conversation=reload-conversation-0001', { headers: { authorization: `Bearer ${'s'.repeat(40)}` } }))
    const body = await response.text()
    expect(response.status).toBe(503)
    expect(JSON.parse(body)).toEqual({ code: 'STORE_UNAVAILABLE', message: `The conversation could not be read. ${SENTENCE}` })
    expectNoStoreWords(body, port)
    expect(log.lines.find((line) => line.level === 'error')!.fields.err).toBeInstanceOf(StoreUnavailableError)
  })
})
