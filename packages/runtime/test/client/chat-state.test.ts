/**
 * The chat state is one pure function of its inputs: a conversation restored from the server's
 * transcript shows the same items the live stream built, and each input changes only what it
 * names (a cancelled card stays cancelled, a refused answer's errors land on its question).
 */
import { describe, expect, it } from 'vitest'
import { appendToTranscript } from '../../src/chat/transcript.ts'
import { createChatReducer, initialChatModel, type ChatInput, type ChatModel } from '../../src/client/chat-state.ts'
import type { TranscriptEvent } from '../../src/protocol/chat-wire.ts'

const reduce = createChatReducer({ hasPlugin: (tool) => tool === 'book_flight' })
const fold = (inputs: readonly ChatInput[], from: ChatModel = initialChatModel()) => inputs.reduce(reduce, from)
const question = (id: string, key: string) => ({ id, key, message: `${key}?`, schema: { type: 'object', properties: {} }, context: {} })

const stream: TranscriptEvent[] = [
  { type: 'user_message', text: 'book a flight and rate it' },
  { type: 'text_delta', text: 'On ' },
  { type: 'text_delta', text: 'it.' },
  { type: 'tool_call', callId: 'c1', toolName: 'book_flight', title: 'Book a flight', params: { from: 'OSL' }, token: 't1' },
  { type: 'tool_progress', callId: 'c1', message: 'searching', progress: 1, total: 2 },
  { type: 'elicit_request', callId: 'c1', toolName: 'book_flight', request: question('c1#1', 'pickFlight') },
  { type: 'elicit_refused', callId: 'c1', elicitId: 'c1#1', code: 'INVALID_CONTENT', message: 'nope', issues: [{ path: 'flightId', message: 'required' }] },
  { type: 'elicit_answered', callId: 'c1', elicitId: 'c1#1', key: 'pickFlight', action: 'accept', summary: 'Flight id: JS-501' },
  { type: 'tool_log', callId: 'c1', level: 'info', message: 'holding seat' },
  { type: 'tool_progress', callId: 'c1', message: 'booked', progress: 2, total: 2 },
  { type: 'tool_result', callId: 'c1', toolName: 'book_flight', result: { ticket: 'TK-1' } },
  { type: 'text_delta', text: 'Booked. How was it?' },
  { type: 'tool_call', callId: 'c2', toolName: 'rate_trip', params: {}, token: 't2' },
  { type: 'elicit_request', callId: 'c2', toolName: 'rate_trip', request: question('c2#1', 'rating') },
  { type: 'conversation_state', messages: [{ role: 'user', content: [{ type: 'text', text: 'book a flight and rate it' }] }] },
]

describe('reduceChat', () => {
  it('restores from the transcript exactly what the live stream showed, question and tokens included', () => {
    const live = fold([{ type: 'turn_started' }, ...stream.map((event): ChatInput => ({ type: 'event', event })), { type: 'turn_ended' }])
    const transcript = stream.reduce(appendToTranscript, [] as TranscriptEvent[])
    const restored = fold([{ type: 'restoring' }, { type: 'restored', events: transcript, conversation: live.conversation, revision: 3 }])
    expect(restored.view).toEqual(live.view)
    expect(restored.calls).toEqual(live.calls)
    expect(restored.conversation).toEqual(live.conversation)
    expect(live.view.status).toBe('awaiting_input')
    expect(live.calls).toEqual({ c2: { token: 't2', elicitId: 'c2#1' } }) // c1 ended: its token is gone
    const [, assistant, booked, , rating] = live.view.items
    expect(assistant).toMatchObject({ kind: 'assistant', text: 'On it.' })
    expect(booked).toMatchObject({
      kind: 'tool',
      status: 'completed',
      answers: [{ summary: 'Flight id: JS-501' }],
      progress: { message: 'booked' },
      logs: [{ message: 'holding seat' }],
    })
    expect(rating).toMatchObject({ kind: 'tool', status: 'awaiting_input', elicitation: { handledByPlugin: false, submitting: false } })
  })

  it('keeps a cancelled card cancelled whatever arrives after, and puts refusals on the open question', () => {
    const open = fold(stream.slice(0, 6).map((event): ChatInput => ({ type: 'event', event })))
    const refused = reduce(reduce(open, { type: 'answer_submitting', callId: 'c1' }), { type: 'event', event: stream[6]! })
    expect(refused.view.items[2]).toMatchObject({ elicitation: { submitting: false, errors: [{ path: 'flightId', message: 'required' }] } })
    const cancelled = fold(
      [
        { type: 'call_cancelled', callId: 'c1' },
        { type: 'event', event: { type: 'tool_progress', callId: 'c1', message: 'late' } },
        { type: 'event', event: { type: 'tool_result', callId: 'c1', toolName: 'book_flight', result: 'cancelled by the user', isError: true } },
      ],
      open,
    )
    expect(cancelled.view.items[2]).toMatchObject({ status: 'cancelled', progress: { message: 'searching' }, result: 'cancelled by the user' })
    expect(cancelled.calls).toEqual({})
  })

  it('a call someone stopped is cancelled, not failed, where nobody clicked Stop: a reload of its transcript, another tab', () => {
    const open = fold(stream.slice(0, 6).map((event): ChatInput => ({ type: 'event', event })))
    const result = 'The tool call was cancelled: the user stopped it.'
    const alreadyDone = 'Already done before it stopped (not undone): "hold seat".'
    const elsewhere = reduce(open, { type: 'event', event: { type: 'tool_result', callId: 'c1', toolName: 'book_flight', result, isError: true, cancelled: true, alreadyDone } })
    expect(elsewhere.view.items[2]).toMatchObject({ status: 'cancelled', result, alreadyDone })
    expect(elsewhere.view.items[2]).not.toHaveProperty('error')
    expect(elsewhere.calls).toEqual({})
    // Without the flag (an older server) an error result stays a failure.
    const failed = reduce(open, { type: 'event', event: { type: 'tool_result', callId: 'c1', toolName: 'book_flight', result: 'boom', isError: true } })
    expect(failed.view.items[2]).toMatchObject({ status: 'failed', error: 'boom' })
  })

  it('a notice of what changed elsewhere stays through a restore and goes with the next thing the person does', () => {
    const open = fold(stream.slice(0, 6).map((event): ChatInput => ({ type: 'event', event })))
    const told = reduce(open, { type: 'notice', text: 'This conversation changed in another window.' })
    const restored = reduce(told, { type: 'restored', events: stream.slice(0, 6), conversation: [], revision: 4 })
    expect(restored.view.notice).toBe('This conversation changed in another window.')
    expect(reduce(restored, { type: 'user_sent', id: 'u9', text: 'hi' }).view.notice).toBeUndefined()
    expect(reduce(restored, { type: 'answer_submitting', callId: 'c1' }).view.notice).toBeUndefined()
    expect(reduce(restored, { type: 'notice', text: undefined }).view.notice).toBeUndefined()
  })

  it('a refusal that carries the question the call waits on now puts that question on the card', () => {
    const open = fold(stream.slice(0, 6).map((event): ChatInput => ({ type: 'event', event })))
    const later = question('c1#2', 'pickSeat')
    const caughtUp = reduce(open, { type: 'event', event: { type: 'elicit_refused', callId: 'c1', elicitId: 'c1#1', code: 'ID_MISMATCH', message: 'stale', current: later } })
    expect(caughtUp.view.items[2]).toMatchObject({ status: 'awaiting_input', elicitation: { request: { id: 'c1#2', key: 'pickSeat' }, submitting: false } })
    expect(caughtUp.calls.c1).toEqual({ token: 't1', elicitId: 'c1#2' })
  })

  it('a message that never reached the server is marked for Retry and leaves the conversation', () => {
    const before = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'earlier' }] }]
    const sent = fold([
      { type: 'request', conversation: before },
      { type: 'user_sent', id: 'user-1', text: 'hello' },
      { type: 'request', conversation: [...before, { role: 'user', content: [{ type: 'text', text: 'hello' }] }] },
      { type: 'turn_started' },
      { type: 'message_undelivered', id: 'user-1', conversation: before },
      { type: 'turn_failed', error: new Error('offline') },
    ])
    expect(sent.view).toMatchObject({ status: 'error', items: [{ id: 'user-1', failed: true }] })
    expect(sent.conversation).toEqual(before)
    expect(fold([{ type: 'reachable' }, { type: 'retrying', id: 'user-1' }], sent).view).toMatchObject({ status: 'ready', error: undefined, items: [{ failed: false }] })
  })
})
