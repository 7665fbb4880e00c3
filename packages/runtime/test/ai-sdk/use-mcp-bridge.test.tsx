// @vitest-environment happy-dom
/**
 * The browser half against the server half, with a small stand-in for `useChat` (its message
 * state, `addToolOutput`, `sendMessage` posting to the bridge and applying the stream's chunks):
 * the plugin's component asks, the generated form asks, the answers reach the call and its
 * result comes back to the part — under React's StrictMode, which mounts everything twice in dev.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { StrictMode, useEffect, useRef, useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createAiSdkBridge, type AiSdkBridge, type UiChunkLike, type UiMessageLike } from '../../src/ai-sdk.ts'
import { McpBridgeToolPart, useMcpBridge, type AiSdkChatLike } from '../../src/ai-sdk-react.ts'
import { createMcpTool, createPlugin, generatedForm, type RenderedProps } from '../../src/index.ts'

const booking = createMcpTool('book_room')
  .parameters(z.object({ city: z.string() }))
  .elicits({
    pickRoom: { response: z.object({ room: z.enum(['single', 'double']) }), context: z.object({ city: z.string() }) },
    nights: z.object({ nights: z.int().min(1).max(14) }),
  })
  .execute(function* (params, ctx) {
    const room = yield* ctx.elicit('pickRoom', { message: `Which room in ${params.city}?`, city: params.city })
    if (room.action !== 'accept') return 'No room.'
    const nights = yield* ctx.elicit('nights', { message: 'How many nights?' })
    if (nights.action !== 'accept') return 'No nights.'
    return `Booked a ${room.content.room} room for ${nights.content.nights} nights in ${params.city}.`
  })

function RoomPicker({ city, onRespond }: { city: string } & RenderedProps<{ room: 'single' | 'double' }>) {
  return (
    <div>
      <p>Rooms in {city}</p>
      <button onClick={() => onRespond({ room: 'double' })}>Double room</button>
    </div>
  )
}

const plugin = createPlugin(booking)
  .onElicit({
    *pickRoom(req, ctx) {
      return { action: 'accept', content: yield* ctx.render(RoomPicker, { city: req.context.city }) }
    },
    nights: generatedForm,
  })
  .build()

let bridge: AiSdkBridge
afterEach(async () => {
  cleanup()
  await bridge?.close()
})

/**
 * useChat, as far as the bridge uses it: messages, addToolOutput, and sendMessage() to the server.
 * With `streaming`, the response that asked the question is still streaming when the chat mounts:
 * the `finish` it is handed ends it the way `ai`'s Chat does — the message it streamed (a snapshot
 * from its start) written over the chat's, then status `ready`.
 */
function useStandInChat(initial: UiMessageLike[], streaming?: (finish: () => void) => void): AiSdkChatLike & { sent: number } {
  const [messages, setMessages] = useState(initial)
  const [status, setStatus] = useState<AiSdkChatLike['status']>(streaming ? 'streaming' : 'ready')
  const current = useRef(messages)
  const sent = useRef(0)
  const update = (next: UiMessageLike[]) => {
    current.current = next
    setMessages(next)
  }
  const setOutput = (toolCallId: string, output: unknown) =>
    update(current.current.map((m) => ({ ...m, parts: m.parts.map((p) => (p.toolCallId === toolCallId ? { ...p, output } : p)) })))
  useEffect(() => {
    streaming?.(() => {
      const streamed = initial.at(-1)!
      update(current.current.map((m) => (m.id === streamed.id ? streamed : m)))
      setStatus('ready')
    })
    // Once, as the response it stands for began once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  return {
    messages,
    status,
    sent: sent.current,
    addToolOutput: ({ toolCallId, output }) => setOutput(toolCallId, output),
    async sendMessage() {
      sent.current++
      setStatus('submitted')
      const writer = { write: (chunk: UiChunkLike) => void (chunk.type === 'tool-output-available' && setOutput(chunk.toolCallId, chunk.output)) }
      const turn = await bridge.prepare({ messages: current.current, writer })
      if (turn.callModel) update([...current.current, { id: `a${current.current.length}`, role: 'assistant', parts: [{ type: 'text' }] }])
      setStatus('ready')
    },
  }
}

function Chat({ initial, plugins = [plugin.client], streaming }: { initial: UiMessageLike[]; plugins?: Array<typeof plugin.client>; streaming?: (finish: () => void) => void }) {
  const chat = useStandInChat(initial, streaming)
  const mcp = useMcpBridge(chat, { plugins })
  return (
    <main>
      {chat.messages.flatMap((m) =>
        m.parts.map((part, i) => {
          const call = mcp.read(part)
          return call ? <McpBridgeToolPart key={`${m.id}-${i}`} bridge={mcp} part={call} /> : null
        }),
      )}
      <p>{mcp.waiting ? 'waiting for an answer' : `${chat.messages.length} messages`}</p>
    </main>
  )
}

/** The first turn: the model called the tool, which ran to its question (streamText did this). */
async function firstTurn(): Promise<UiMessageLike[]> {
  let output: unknown
  for await (const o of bridge.tools().book_room!.execute({ city: 'Oslo' }, { toolCallId: 'call-1' })) output = o
  return [
    { id: 'u1', role: 'user', parts: [{ type: 'text' }] },
    { id: 'a1', role: 'assistant', parts: [{ type: 'tool-book_room', toolCallId: 'call-1', state: 'output-available', input: { city: 'Oslo' }, output }] },
  ]
}

describe('useMcpBridge + McpBridgeToolPart', () => {
  it('asks with the plugin, then the generated form, and shows the result — under StrictMode', async () => {
    bridge = createAiSdkBridge({ tools: [booking] })
    const initial = await firstTurn()
    render(
      <StrictMode>
        <Chat initial={initial} />
      </StrictMode>,
    )
    expect(screen.getByText('waiting for an answer')).toBeTruthy()
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Double room' })))
    await screen.findByText('How many nights?')
    fireEvent.change(screen.getByLabelText(/Nights/), { target: { value: '3' } })
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Submit' })))
    await screen.findByText('Booked a double room for 3 nights in Oslo.')
    expect(screen.getByText('Room: Double')).toBeTruthy()
    expect(screen.getByText('Nights: 3')).toBeTruthy()
    expect(screen.getByText('3 messages')).toBeTruthy()
  })

  it('Cancel ends the call; the part says Cancelled (no alert, no apology) and the model is not called', async () => {
    bridge = createAiSdkBridge({ tools: [booking] })
    render(<Chat initial={await firstTurn()} />)
    await screen.findByRole('button', { name: 'Double room' })
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Cancel book_room' })))
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Cancelled.'))
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Double room' })).toBeNull()
    expect(screen.getByText('2 messages')).toBeTruthy()
  })

  it('a handler that fails shows why on the part, and the generated form takes the answer', async () => {
    bridge = createAiSdkBridge({ tools: [booking] })
    const broken = createPlugin(booking)
      .onElicit({
        *pickRoom() {
          return { action: 'accept', content: { room: 'suite' as 'single' } }
        },
        nights: generatedForm,
      })
      .build()
    render(<Chat initial={await firstTurn()} plugins={[broken.client]} />)
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toMatch(/^This question's UI failed \(.*returned an invalid answer without showing any UI.*room.*\)\. Answer it with the form below, or cancel\.$/s)
    fireEvent.change(screen.getByLabelText(/Room/), { target: { value: 'double' } })
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Submit' })))
    await screen.findByText('How many nights?')
  })

  it('an answer given while the response that asked is still streaming waits for that response to end, and is not lost', async () => {
    bridge = createAiSdkBridge({ tools: [booking] })
    let finish = () => {}
    render(<Chat initial={await firstTurn()} streaming={(f) => (finish = f)} />)
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Double room' })))
    // The asking response ends only now, writing back the message it streamed (with the question in it).
    await act(async () => finish())
    await screen.findByText('How many nights?')
    fireEvent.change(screen.getByLabelText(/Nights/), { target: { value: '2' } })
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Submit' })))
    await screen.findByText('Booked a double room for 2 nights in Oslo.')
  })
})
