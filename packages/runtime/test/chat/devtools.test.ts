/**
 * The chat handler's devtools — what the Vite plugin's dev panel runs on: calls with their
 * timelines; a question answered as the developer goes on as a recovered call goes on, written to
 * its conversation, where a page of that conversation finds it on restore; a refused answer
 * leaves the question as it was; cancel ends a call.
 */
import { describe, expect, it } from 'vitest'
import { createChatHandler, createMemoryStore, type ChatHandler } from '../../src/server.ts'
import type { ChatController, ConversationStorage } from '../../src/client.ts'
import { createScriptedModel } from '../../src/testing.ts'
import { bookingPlugin, FlightList, nextEmission, until } from '../support/booking-client.ts'
import { chatPage, memoryStorage } from '../support/chat-page.ts'

const page = (handler: ChatHandler, storage: ConversationStorage): ChatController => chatPage(handler, storage, [bookingPlugin.client])

const model = createScriptedModel({
  onUserMessage: [{ match: /book/i, reply: { text: 'On it. ', toolCalls: [{ name: 'book_flight', input: { from: 'OSL', destination: 'BER' } }] } }],
  onToolResult: (_name, r) => `Booked: ${(r as { ticketNumber?: string }).ticketNumber ?? 'no'}`,
  onSample: () => 'Use terminal 4.',
})

describe('chat devtools (the dev panel)', () => {
  it('lists a call with its timeline; answers its questions as the developer — a refused one changes nothing — and a page of its conversation restores the booking and its reply', async () => {
    const handler = createChatHandler({ tools: [bookingPlugin], model, store: createMemoryStore() })
    expect(handler.devtools.store).toBe('memory')
    expect(handler.devtools.calls()).toEqual([]) // from now on, calls are recorded
    const storage = memoryStorage()
    const chat = page(handler, storage)
    await chat.restore()
    await chat.sendMessage('Book me a flight')
    await nextEmission(chat, FlightList)
    await until(chat, () => chat.getState().status === 'awaiting_input')

    const [listed] = handler.devtools.calls()
    expect(listed).toMatchObject({ tool: 'book_flight', live: true, status: 'waiting', pending: { key: 'pickFlight' }, origin: { conversation: expect.any(String) } })
    expect(listed!.timeline.map((e) => e.kind)).toEqual(['started', 'log', 'question', 'parked'])
    expect(listed!.timeline[2]!.text).toBe('asks pickFlight: Select your flight')

    // Refused: the schema says what is wrong; the question stays.
    const refused = await handler.devtools.answer(listed!.callId, { action: 'accept', content: { flight: 'SH-142' } })
    expect(refused).toMatchObject({ ok: false, code: 'INVALID_CONTENT', issues: [expect.objectContaining({ path: 'flightId' })] })
    expect(handler.devtools.calls()[0]).toMatchObject({ status: 'waiting', pending: { key: 'pickFlight' } })

    const first = await handler.devtools.answer(listed!.callId, { action: 'accept', content: { flightId: 'SH-142' } })
    expect(first).toEqual({ ok: true, conversation: listed!.origin && (listed!.origin as { conversation: string }).conversation, revision: expect.any(Number) })
    expect(handler.devtools.calls()[0]).toMatchObject({ status: 'waiting', pending: { key: 'pickSeat' } })
    const second = await handler.devtools.answer(listed!.callId, { action: 'accept', content: { row: 3, seat: 'B' } })
    expect(second).toMatchObject({ ok: true })
    const done = handler.devtools.calls()[0]!
    expect(done).toMatchObject({ live: false, status: 'completed' })
    // The refused answer shows as a resume that parked again on the same question.
    expect(done.timeline.map((e) => [e.kind, e.text])).toEqual([
      ['started', 'started'],
      ['log', 'info: Found 2 flights'],
      ['question', 'asks pickFlight: Select your flight'],
      ['parked', 'waits for pickFlight'],
      ['resumed', 'an answer came'],
      ['parked', 'waits for pickFlight'],
      ['resumed', 'an answer came'],
      ['answer', 'answered'],
      ['question', 'asks pickSeat: Select your seat'],
      ['parked', 'waits for pickSeat'],
      ['resumed', 'an answer came'],
      ['answer', 'answered'],
      ['progress', 'Getting a travel tip (1/2)'],
      ['sample', 'asks the model'],
      ['sample', 'the model answered'],
      ['progress', 'Booked (2/2)'],
      ['ended', 'completed'],
    ])

    // The panel tells the conversation's pages the new revision, as another tab would (a BroadcastChannel
    // per conversation): the page restores, finds the booking, and asks the model for its reply.
    const tabs = new BroadcastChannel(`mcp-bridge:conversation:${second.ok && second.conversation}`)
    tabs.postMessage({ revision: second.ok && second.revision })
    tabs.close()
    await until(chat, () => chat.getState().items.some((i) => i.kind === 'tool' && i.status === 'completed'))
    await until(chat, () => chat.getState().items.at(-1)?.kind === 'assistant' && /Booked: TK-SH-142-3B/.test((chat.getState().items.at(-1) as { text: string }).text))
    chat.dispose()
    await handler.close()
  }, 30_000)

  it('cancels a waiting call: its result says so, and a second cancel is refused as finished', async () => {
    const handler = createChatHandler({ tools: [bookingPlugin], model })
    handler.devtools.calls()
    const chat = page(handler, memoryStorage())
    await chat.restore()
    await chat.sendMessage('Book me a flight')
    await nextEmission(chat, FlightList)
    const [call] = handler.devtools.calls()
    expect(await handler.devtools.cancel(call!.callId)).toMatchObject({ ok: true })
    expect(await handler.calls.finishedHow(call!.callId)).toBe('it was aborted: it was cancelled from the dev panel')
    expect(await handler.devtools.cancel(call!.callId)).toMatchObject({ ok: false, code: 'FINISHED' })
    expect(await handler.devtools.answer('nope', { action: 'cancel' })).toMatchObject({ ok: false, code: 'NOT_FOUND' })
    chat.dispose()
    await handler.close()
  }, 30_000)
})
