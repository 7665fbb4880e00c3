// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import { StrictMode } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { createPlugin, type McpMessage, type RenderedProps } from '../../src/index.ts'
import { type ChatRequestBody, type ChatStreamEvent, createChatController, type Emission, encodeChatEvent, type ToolItem } from '../../src/client.ts'
import { useChat } from '../../src/react.ts'
import { createChatHandler } from '../../src/server.ts'
import { createScriptedModel } from '../../src/testing.ts'
import { bookFlight, mockFlightSearch } from '../fixtures/book-flight.ts'

afterEach(cleanup)

function endpoint(script: (body: ChatRequestBody, n: number) => ChatStreamEvent[] | Response) {
  const bodies: ChatRequestBody[] = []
  const fetch = (async (_url: string, init: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init.body)) as ChatRequestBody
    bodies.push(body)
    const out = script(body, bodies.length)
    if (out instanceof Response) return out
    // Split mid-line on purpose: the reader must reassemble events across chunks.
    const text = out.map(encodeChatEvent).join('')
    const bytes = new TextEncoder().encode(text)
    const cut = Math.floor(bytes.length / 2)
    return new Response(
      new ReadableStream({
        start(c) {
          c.enqueue(bytes.slice(0, cut))
          c.enqueue(bytes.slice(cut))
          c.close()
        },
      }),
      { headers: { 'content-type': 'application/x-ndjson' } },
    )
  }) as unknown as typeof globalThis.fetch
  return { fetch, bodies }
}

const user = (text: string): McpMessage => ({ role: 'user', content: [{ type: 'text', text }] })
const flights = mockFlightSearch('JFK', 'LAX')

function elicitEvent(key: string, seq: number, extra: Partial<Extract<ChatStreamEvent, { type: 'elicit_request' }>['request']> = {}): ChatStreamEvent {
  return {
    type: 'elicit_request',
    callId: 'call_1',
    toolName: 'book_flight',
    request: {
      id: `call_1#${seq}`,
      key,
      message: 'Select your flight',
      schema: { type: 'object', properties: { flightId: { type: 'string' } }, required: ['flightId'] },
      context: { flights },
      params: { from: 'JFK', destination: 'LAX' },
      handoff: undefined,
      ...extra,
    },
  }
}

/** The model's tool call, with the token the server issues for it. */
const toolCall: ChatStreamEvent = { type: 'tool_call', callId: 'call_1', toolName: 'book_flight', params: { from: 'JFK' }, token: 'tok-123' }

function FlightList(_: { flights: unknown[] } & RenderedProps<{ flightId: string }>) {
  return null
}
const plugin = createPlugin(bookFlight)
  .onElicit({
    *pickFlight(req, ctx) {
      return { action: 'accept', content: yield* ctx.render(FlightList, { flights: req.context.flights }) }
    },
    *pickSeat() {
      return { action: 'decline' }
    },
  })
  .build()

function toolItem(state: { items: readonly unknown[] }): ToolItem {
  return state.items.find((i) => (i as ToolItem).kind === 'tool') as ToolItem
}

function nextEmission(chat: ReturnType<typeof createChatController>, pred: (e: Emission) => boolean = () => true) {
  return new Promise<Emission>((resolve) => {
    const check = () => {
      const e = chat.store.getSnapshot().emissions.find(pred)
      if (e) {
        off()
        resolve(e)
      }
    }
    const off = chat.store.subscribe(check)
    check()
  })
}

describe('createChatController', () => {
  it('streams text into one assistant message and sends the conversation back next turn', async () => {
    const server = endpoint((_body, n) => [
      { type: 'text_delta', text: n === 1 ? 'Hel' : 'Again' },
      { type: 'text_delta', text: n === 1 ? 'lo ✈️' : '!' },
      { type: 'conversation_state', messages: [user('hi'), { role: 'assistant', content: [{ type: 'text', text: 'Hello ✈️' }] }] },
    ])
    const chat = createChatController({ fetch: server.fetch })
    await chat.sendMessage('hi')
    expect(chat.getState()).toMatchObject({
      status: 'ready',
      items: [
        { kind: 'user', text: 'hi' },
        { kind: 'assistant', text: 'Hello ✈️' },
      ],
    })
    await chat.sendMessage('more')
    expect(server.bodies[1]!.messages).toEqual([user('hi'), { role: 'assistant', content: [{ type: 'text', text: 'Hello ✈️' }] }, user('more')])
    await chat.sendMessage('   ')
    expect(server.bodies).toHaveLength(2)
  })

  it('runs the plugin for an elicitation and answers with the session token; the tool completes', async () => {
    const server = endpoint((body, n) => {
      if (n === 1) return [toolCall, elicitEvent('pickFlight', 1), { type: 'conversation_state', messages: [user('book')] }]
      expect(body.elicitResponses).toEqual([{ callId: 'call_1', elicitId: 'call_1#1', token: 'tok-123', result: { action: 'accept', content: { flightId: 'CA-287' } } }])
      return [
        { type: 'tool_log', callId: 'call_1', level: 'info', message: 'booking' },
        { type: 'tool_progress', callId: 'call_1', message: 'Booked', progress: 2, total: 2 },
        { type: 'tool_result', callId: 'call_1', toolName: 'book_flight', result: { booked: true } },
        { type: 'text_delta', text: 'Done.' },
        { type: 'conversation_state', messages: [user('book')] },
      ]
    })
    const chat = createChatController({ fetch: server.fetch, plugins: [plugin.client] })
    await chat.sendMessage('book')
    expect(chat.getState().status).toBe('awaiting_input')
    expect(toolItem(chat.getState())).toMatchObject({ status: 'awaiting_input', elicitation: { handledByPlugin: true } })
    const ui = await nextEmission(chat)
    expect(ui.props).toEqual({ flights })
    ui.respond({ flightId: 'CA-287' })
    await new Promise<void>((resolve) => {
      const off = chat.subscribe(() => {
        if (chat.getState().status === 'ready') {
          off()
          resolve()
        }
      })
    })
    expect(toolItem(chat.getState())).toMatchObject({
      status: 'completed',
      result: { booked: true },
      logs: [{ level: 'info', message: 'booking' }],
      progress: { message: 'Booked', progress: 2, total: 2 },
    })
    expect(chat.getState().items.at(-1)).toMatchObject({ kind: 'assistant', text: 'Done.' })
  })

  it('feeds a server refusal back to the plugin UI, which asks again', async () => {
    const server = endpoint((_b, n) =>
      n === 1
        ? [toolCall, elicitEvent('pickFlight', 1), { type: 'conversation_state', messages: [] }]
        : n === 2
          ? [
              {
                type: 'elicit_refused',
                callId: 'call_1',
                elicitId: 'call_1#1',
                code: 'INVALID_CONTENT',
                message: 'no such flight',
                issues: [{ path: 'flightId', message: 'unknown flight' }],
              },
              { type: 'conversation_state', messages: [] },
            ]
          : [
              { type: 'tool_result', callId: 'call_1', toolName: 'book_flight', result: 'ok' },
              { type: 'conversation_state', messages: [] },
            ],
    )
    const chat = createChatController({ fetch: server.fetch, plugins: [plugin.client] })
    await chat.sendMessage('book')
    ;(await nextEmission(chat)).respond({ flightId: 'XX-1' })
    const again = await nextEmission(chat, (e) => e.errors !== undefined)
    expect(again.errors).toEqual([{ path: 'flightId', message: 'unknown flight' }])
    again.respond({ flightId: 'SH-142' })
    await new Promise<void>((r) => {
      const off = chat.subscribe(() => toolItem(chat.getState()).status === 'completed' && (off(), r()))
    })
    expect(server.bodies.map((b) => b.elicitResponses?.[0]?.result)).toEqual([
      undefined,
      { action: 'accept', content: { flightId: 'XX-1' } },
      { action: 'accept', content: { flightId: 'SH-142' } },
    ])
  })

  it("keeps each answer's one-line record on the card, shows the tool's title, and ends a declined call as declined", async () => {
    const server = endpoint((_body, n) => {
      if (n === 1) return [{ ...toolCall, title: 'Book a flight' }, elicitEvent('pickFlight', 1), { type: 'conversation_state', messages: [user('book')] }]
      if (n === 2) {
        return [
          { type: 'elicit_answered', callId: 'call_1', elicitId: 'call_1#1', key: 'pickFlight', action: 'accept', summary: 'Flight id: CA-287' },
          elicitEvent('pickSeat', 2, { message: 'Select your seat', context: { taken: [] } }),
          { type: 'conversation_state', messages: [user('book')] },
        ]
      }
      return [
        { type: 'elicit_answered', callId: 'call_1', elicitId: 'call_1#2', key: 'pickSeat', action: 'decline', summary: '' },
        { type: 'tool_result', callId: 'call_1', toolName: 'book_flight', result: { booked: false } },
        { type: 'conversation_state', messages: [user('book')] },
      ]
    })
    const chat = createChatController({ fetch: server.fetch, plugins: [plugin.client] })
    await chat.sendMessage('book')
    expect(toolItem(chat.getState())).toMatchObject({ toolName: 'book_flight', title: 'Book a flight', answers: [] })
    ;(await nextEmission(chat)).respond({ flightId: 'CA-287' })
    await until(chat, () => toolItem(chat.getState()).status === 'declined')
    expect(toolItem(chat.getState()).answers).toEqual([
      { key: 'pickFlight', action: 'accept', summary: 'Flight id: CA-287' },
      { key: 'pickSeat', action: 'decline', summary: '' },
    ])
  })

  it('falls back to the generated form, saying why, when a plugin handler throws', async () => {
    const broken = createPlugin(bookFlight)
      .onElicit({
        // eslint-disable-next-line require-yield
        *pickFlight() {
          throw new Error('flights.map is not a function')
        },
        *pickSeat() {
          return { action: 'decline' }
        },
      })
      .build()
    const server = endpoint(() => [toolCall, elicitEvent('pickFlight', 1), { type: 'conversation_state', messages: [user('book')] }])
    const errors: unknown[] = []
    const original = console.error
    console.error = (e: unknown) => errors.push(e)
    try {
      const chat = createChatController({ fetch: server.fetch, plugins: [broken.client] })
      await chat.sendMessage('book')
      await until(chat, () => toolItem(chat.getState()).elicitation?.handledByPlugin === false)
      expect(toolItem(chat.getState()).error).toMatch(/^This question's UI failed \(.*flights\.map is not a function\)\. Answer it with the form below, or cancel\.$/)
      expect(errors).toHaveLength(1)
    } finally {
      console.error = original
    }
  })

  it('marks elicitations without a plugin for the fallback form, and shows server errors on it', async () => {
    const server = endpoint((_b, n) =>
      n === 1
        ? [toolCall, elicitEvent('pickFlight', 1), { type: 'conversation_state', messages: [] }]
        : [
            { type: 'elicit_refused', callId: 'call_1', elicitId: 'call_1#1', code: 'WRONG_TOKEN', message: 'token mismatch' },
            { type: 'conversation_state', messages: [] },
          ],
    )
    const chat = createChatController({ fetch: server.fetch })
    await chat.sendMessage('book')
    expect(toolItem(chat.getState()).elicitation).toMatchObject({ handledByPlugin: false, submitting: false })
    await chat.respond('call_1', { action: 'decline' })
    expect(server.bodies[1]!.elicitResponses?.[0]).toMatchObject({ elicitId: 'call_1#1', token: 'tok-123', result: { action: 'decline' } })
    expect(toolItem(chat.getState()).elicitation).toMatchObject({ submitting: false, errors: [{ path: '', message: 'token mismatch' }] })
  })

  it('abort(callId) halts the plugin UI and asks the server to abort the call, with its token', async () => {
    const server = endpoint((_b, n) =>
      n === 1 ? [toolCall, elicitEvent('pickFlight', 1), { type: 'conversation_state', messages: [] }] : [{ type: 'conversation_state', messages: [] }],
    )
    const chat = createChatController({ fetch: server.fetch, plugins: [plugin.client] })
    await chat.sendMessage('book')
    await nextEmission(chat)
    await chat.abort('call_1')
    expect(chat.store.getSnapshot().emissions).toEqual([])
    expect(toolItem(chat.getState()).status).toBe('cancelled')
    expect(server.bodies[1]).toMatchObject({ abort: { callId: 'call_1', token: 'tok-123' } })
  })

  it('shows a call the server no longer holds as a failed tool call', async () => {
    const server = endpoint(() => [
      toolCall,
      { type: 'call_not_found', callId: 'call_1', message: 'This tool call is no longer running.' },
      { type: 'conversation_state', messages: [] },
    ])
    const chat = createChatController({ fetch: server.fetch })
    await chat.sendMessage('x')
    expect(toolItem(chat.getState())).toMatchObject({ status: 'failed', error: 'This tool call is no longer running.' })
  })

  it('reports an HTTP error plainly, with the server message', async () => {
    const server = endpoint(() => new Response(JSON.stringify({ message: 'body too large' }), { status: 413, statusText: 'Payload Too Large' }))
    const chat = createChatController({ fetch: server.fetch })
    await chat.sendMessage('x')
    expect(chat.getState().status).toBe('error')
    expect(chat.getState().error?.message).toBe('The chat endpoint answered 413 Payload Too Large: body too large')
  })
})

describe('useChat', () => {
  function Chat({ fetch, id }: { fetch: typeof globalThis.fetch; id?: string }) {
    const chat = useChat({ fetch, ...(id !== undefined && { id }) })
    return (
      <div>
        <p data-testid="status">{chat.status}</p>
        {chat.items.map((i) => (
          <p key={i.id}>{i.kind === 'tool' ? i.toolName : i.text}</p>
        ))}
        <button onClick={() => void chat.sendMessage('hello')}>send</button>
      </div>
    )
  }

  it('renders the conversation as it streams, under StrictMode (effects run twice on mount)', async () => {
    const server = endpoint(() => [
      { type: 'text_delta', text: 'Hi there' },
      { type: 'conversation_state', messages: [] },
    ])
    render(
      <StrictMode>
        <Chat fetch={server.fetch} />
      </StrictMode>,
    )
    expect(screen.getByTestId('status').textContent).toBe('ready')
    await act(async () => screen.getByRole('button', { name: 'send' }).click())
    expect(await screen.findByText('Hi there')).toBeTruthy()
    expect(screen.getByText('hello')).toBeTruthy()
    expect(screen.getByTestId('status').textContent).toBe('ready')
  })

  it('restores a kept conversation under StrictMode (the cleanup cuts the first restore short)', async () => {
    const handler = createChatHandler({
      tools: [],
      model: createScriptedModel({ onUserMessage: [{ match: /hello/, reply: { text: 'Hello back' } }] }),
    })
    const fetch = ((url: string, init?: RequestInit) => handler(new Request(`http://127.0.0.1${url}`, init))) as typeof globalThis.fetch
    const first = render(<Chat fetch={fetch} id="strict" />)
    await act(async () => screen.getByRole('button', { name: 'send' }).click())
    expect(await screen.findByText('Hello back')).toBeTruthy()
    first.unmount()
    render(
      <StrictMode>
        <Chat fetch={fetch} id="strict" />
      </StrictMode>,
    )
    expect(await screen.findByText('Hello back')).toBeTruthy()
    expect(screen.getByText('hello')).toBeTruthy()
    expect(screen.getByTestId('status').textContent).toBe('ready')
    localStorage.clear()
    await handler.close()
  })
})

/** Resolves once `done()` holds (checked on every state change). */
function until(chat: ReturnType<typeof createChatController>, done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (done()) return resolve()
    const off = chat.subscribe(() => {
      if (done()) {
        off()
        resolve()
      }
    })
  })
}
