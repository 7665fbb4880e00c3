/**
 * Client and server together: the chat controller (what useChat runs) with the book_flight
 * plugin, talking to the real chat handler. The whole booking, as the playground does it.
 */
import { describe, expect, it } from 'vitest'
import { createChatHandler } from '../../src/server.ts'
import { createChatController, type ToolItem } from '../../src/client.ts'
import { createScriptedModel } from '../../src/testing.ts'
import { longReport } from '../fixtures/long-report.ts'
import { bookingPlugin, FlightList, nextEmission, SeatPicker, until } from '../support/booking-client.ts'

describe('useChat controller against createChatHandler', () => {
  it('books a flight: flight list → seat picker → confirmation', async () => {
    const handler = createChatHandler({
      tools: [bookingPlugin],
      model: createScriptedModel({
        onUserMessage: [{ match: /book/i, reply: { text: 'On it. ', toolCalls: [{ name: 'book_flight', input: { from: 'JFK', destination: 'LAX' } }] } }],
        onToolResult: (_n, r) => `Booked: ${(r as { ticketNumber: string }).ticketNumber}`,
        onSample: () => 'Use terminal 4.',
      }),
    })
    const chat = createChatController({
      fetch: ((url: string, init: RequestInit) => handler(new Request(`http://127.0.0.1${url}`, init))) as typeof fetch,
      plugins: [bookingPlugin.client],
    })
    await chat.sendMessage('Book me a flight')
    ;(await nextEmission(chat, FlightList)).respond({ flightId: 'SH-142' })
    ;(await nextEmission(chat, SeatPicker)).respond({ row: 9, seat: 'A' })
    await until(
      chat,
      () =>
        chat.getState().status === 'ready' && chat.getState().items.at(-1)?.kind === 'assistant' && (chat.getState().items.at(-1) as { text: string }).text.startsWith('Booked'),
    )
    const tool = chat.getState().items.find((i): i is ToolItem => i.kind === 'tool')!
    expect(tool).toMatchObject({ status: 'completed', result: { ticketNumber: 'TK-SH-142-9A', seat: '9A', tip: 'Use terminal 4.' } })
    expect(tool.logs).toEqual([{ level: 'info', message: 'Found 2 flights' }])
    expect(tool.progress).toEqual({ message: 'Booked', progress: 2, total: 2 })
    expect(chat.getState().items.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool', 'assistant'])
    expect(handler.calls.size).toBe(0)
    await handler.close()
  })

  it('send() while a question is open does not send; the state says why', async () => {
    const handler = createChatHandler({
      tools: [bookingPlugin],
      model: createScriptedModel({ onUserMessage: [{ match: /book/i, reply: { toolCalls: [{ name: 'book_flight', input: { from: 'JFK', destination: 'LAX' } }] } }] }),
    })
    let requests = 0
    const chat = createChatController({
      fetch: ((url: string, init: RequestInit) => (requests++, handler(new Request(`http://127.0.0.1${url}`, init)))) as typeof fetch,
      plugins: [bookingPlugin.client],
    })
    await chat.sendMessage('Book me a flight')
    await nextEmission(chat, FlightList)
    const before = requests
    await chat.sendMessage('And a hotel?')
    expect(requests).toBe(before)
    expect(chat.getState().error).toMatchObject({ code: 'QUESTION_PENDING', message: expect.stringMatching(/Answer or cancel the question of book_flight above first/) })
    expect(chat.getState().items.filter((i) => i.kind === 'user')).toHaveLength(1)
    chat.dispose()
    await handler.close()
  })

  it('a message that cannot reach the server is marked failed; once the server answers again the error goes, and Retry sends it', async () => {
    const handler = createChatHandler({ tools: [], model: createScriptedModel({ onUserMessage: [{ match: /hi/, reply: { text: 'Hello!' } }] }) })
    let down = true
    const bodies: string[] = []
    const chat = createChatController({
      fetch: (async (url: string, init: RequestInit) => {
        if (down) throw new TypeError('Failed to fetch')
        if (init.body) bodies.push(String(init.body))
        return handler(new Request(`http://127.0.0.1${url}`, init))
      }) as typeof fetch,
    })
    await chat.sendMessage('hi there')
    const failed = chat.getState().items[0]!
    expect(failed).toMatchObject({ kind: 'user', text: 'hi there', failed: true })
    expect(chat.getState()).toMatchObject({
      status: 'error',
      error: { code: 'CHAT_ENDPOINT_ERROR', message: expect.stringMatching(/could not be reached \(Failed to fetch\); checking again/) },
    })
    down = false
    await until(chat, () => chat.getState().status === 'ready') // the background check found the server
    expect(chat.getState().error).toBeUndefined()
    await chat.retry(failed.id)
    expect(chat.getState().items.map((i) => [i.kind, i.kind === 'user' ? i.failed : (i as { text?: string }).text])).toEqual([
      ['user', false],
      ['assistant', 'Hello!'],
    ])
    // The failed message went out once, with the retry, and only once in the conversation.
    expect(bodies.filter((b) => b.includes('hi there'))).toHaveLength(1)
    expect((JSON.parse(bodies.at(-1)!) as { messages: unknown[] }).messages).toHaveLength(1)
    chat.dispose()
    await handler.close()
  }, 15_000)

  it('Cancel on a running call stops it at once, while its response is still streaming', async () => {
    const cleaned: string[] = []
    const handler = createChatHandler({
      tools: [longReport(() => cleaned.push('finally'))],
      model: createScriptedModel({
        onUserMessage: [{ match: /report/, reply: { toolCalls: [{ name: 'long_report', input: {} }] } }],
        onToolResult: (name, _r, isError) => (isError ? `${name} stopped.` : `${name} done.`),
      }),
    })
    const chat = createChatController({ fetch: ((url: string, init: RequestInit) => handler(new Request(`http://127.0.0.1${url}`, init))) as typeof fetch })
    const turn = chat.sendMessage('Build a report')
    const report = () => chat.getState().items.find((i): i is ToolItem => i.kind === 'tool')
    await until(chat, () => report()?.progress?.message === 'step 1')
    await chat.abort(report()!.callId)
    await turn
    expect(cleaned).toEqual(['finally'])
    expect(report()).toMatchObject({ status: 'cancelled', progress: { message: 'step 1' } })
    expect(report()).not.toHaveProperty('error')
    // Stop means stop: the card is the last thing; the model is not asked to say anything about it.
    expect(chat.getState().items.at(-1)).toBe(report())
    expect(handler.calls.size).toBe(0)
    await handler.close()
  }, 20_000)
})
