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
