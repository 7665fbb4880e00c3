/**
 * The README's server snippets ("Run a tool call", "The chat handler"), in substance: the same
 * calls with the same options, so a rename that breaks the README breaks this test.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { readChatEvents, type ChatStreamEvent } from '../../src/client.ts'
import { createBridgeHost, createChatHandler, toNodeListener } from '../../src/server.ts'
import { createMockMcpClient, createScriptedModel } from '../../src/testing.ts'
import { bookFlight } from '../fixtures/book-flight.ts'

describe('README: Run a tool call', () => {
  it('subscribes, answers each question by id, and reads the outcome', async () => {
    const host = createBridgeHost({
      tool: bookFlight,
      params: { from: 'JFK', destination: 'LAX' },
      callId: 'call_readme',
      sampling: createMockMcpClient({ sampleResponses: ['Arrive two hours early.'] }),
      signal: new AbortController().signal,
    })
    const answers = [{ flightId: 'SH-142' }, { row: 40, seat: 'C' }, { row: 12, seat: 'C' }]
    const refused: string[] = []
    for await (const event of host.subscribe()) {
      if (event.type === 'elicit') {
        const { id, key, message, context, schema, params, handoff } = event.request
        expect([typeof message, typeof context, schema.json.type, params, handoff]).toEqual(['string', 'object', 'object', { from: 'JFK', destination: 'LAX' }, undefined])
        // Answer until one is taken, as a UI would after showing the errors.
        while (host.pending() === event.request) {
          const outcome = host.respond({ id, result: { action: 'accept', content: answers.shift() } })
          if (!outcome.ok) refused.push(`${key}: ${outcome.code} ${outcome.issues?.map((i) => i.path).join(',')}`)
        }
      }
    }
    expect(refused).toEqual(['pickSeat: INVALID_CONTENT row'])
    expect(await host.outcome).toMatchObject({ status: 'completed', result: { seat: '12C', tip: 'Arrive two hours early.' } })
  })
})

describe('README: The chat handler', () => {
  it('serves a scripted model over Node http with limits, and close() aborts every call', async () => {
    const model = createScriptedModel({
      onUserMessage: [{ match: /book/i, reply: { text: 'Let me look. ', toolCalls: [{ name: 'book_flight', input: { from: 'JFK', destination: 'LAX' } }] } }],
      onToolResult: (name, result) => `${name} returned ${JSON.stringify(result)}`,
      onSample: () => 'Arrive two hours early.',
    })
    const chat = createChatHandler({ tools: [bookFlight], model, limits: { maxActiveCalls: 500 } })
    const server = createServer(toNodeListener(chat))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'book' }] }] }),
      })
      const events: ChatStreamEvent[] = []
      for await (const e of readChatEvents(res.body!)) events.push(e)
      expect(events.map((e) => e.type)).toEqual(['text_delta', 'tool_call', 'tool_log', 'elicit_request', 'conversation_state'])
      expect(chat.calls.size).toBe(1)
      await chat.close()
      expect(chat.calls.size).toBe(0)
    } finally {
      await new Promise((r) => server.close(r))
    }
  })
})

describe('README: Durable calls', () => {
  it('a tool with steps, on a SQLite store shared by a chat handler and an MCP server, resumes after a restart', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { z } = await import('zod')
    const { createMcpTool } = await import('../../src/index.ts')
    const { createSqliteStore } = await import('../../src/server.ts')
    const { createMcpServer } = await import('../../src/mcp.ts')
    const ran: string[] = []
    const bookTicket = createMcpTool('book_ticket')
      .parameters(z.object({ route: z.string() }))
      .elicits({ confirm: z.object({ ok: z.boolean() }) })
      .execute(function* (params, ctx) {
        const fare = yield* ctx.step('reserve fare', function* ({ idempotencyKey }) {
          ran.push('reserve fare')
          return { fareId: `F-${params.route}`, price: 120, key: idempotencyKey }
        })
        const answer = yield* ctx.elicit('confirm', { message: `Book ${fare.fareId} for ${fare.price} EUR?` })
        if (answer.action !== 'accept' || !answer.content.ok) return { booked: false }
        const ticket = yield* ctx.step('issue ticket', async ({ idempotencyKey }) => (ran.push('issue ticket'), `TK-${params.route}-${idempotencyKey.length}`))
        return { booked: true, ticket }
      })
    const model = createScriptedModel({
      onUserMessage: [{ match: /ticket/, reply: { toolCalls: [{ name: 'book_ticket', input: { route: 'OSL' } }] } }],
      onToolResult: (name, result) => `${name}: ${JSON.stringify(result)}`,
    })
    const dir = mkdtempSync(join(tmpdir(), 'readme-durable-'))
    const serve = async () => {
      const store = await createSqliteStore({ path: join(dir, 'data/calls.db') })
      const chat = createChatHandler({ tools: [bookTicket], model, store })
      const mcp = createMcpServer({ name: 'tickets', version: '1.0.0', tools: [bookTicket], store })
      const server = createServer(toNodeListener(chat))
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
      const stop = async () => (await chat.close(), await mcp.close(), await store.close(), await new Promise((r) => server.close(r)))
      return { url, stop }
    }
    const post = async (url: string, body: unknown) => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      const events: ChatStreamEvent[] = []
      for await (const e of readChatEvents(response.body!)) events.push(e)
      return events
    }
    try {
      const first = await serve()
      const events = await post(first.url, { messages: [{ role: 'user', content: [{ type: 'text', text: 'a ticket please' }] }] })
      await first.stop() // a restart: the waiting call stays in the file
      const call = events.find((e) => e.type === 'tool_call')!
      const asked = events.find((e) => e.type === 'elicit_request')!
      const state = events.find((e) => e.type === 'conversation_state')!
      if (call.type !== 'tool_call' || asked.type !== 'elicit_request' || state.type !== 'conversation_state') throw new Error('no question')
      const second = await serve()
      const done = await post(second.url, {
        messages: state.messages,
        elicitResponses: [{ callId: asked.callId, elicitId: asked.request.id, token: call.token, result: { action: 'accept', content: { ok: true } } }],
      })
      await second.stop()
      expect(done.find((e) => e.type === 'tool_result')).toMatchObject({ result: { booked: true, ticket: expect.stringMatching(/^TK-OSL-\d+$/) } })
      expect(ran).toEqual(['reserve fare', 'issue ticket'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
