/**
 * The AI SDK bridge's server half, driven the way `streamText` and `createUIMessageStream` drive
 * it (its ToolSet's `execute`, `stopWhen`, a writer) but without the `ai` package, which needs
 * Node 22: the real AI SDK runs against it in adoption/test/ai-sdk-app.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { suspend } from 'effection'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createAiSdkBridge, type AiSdkBridge, type McpBridgeToolOutput, type UiChunkLike, type UiMessageLike } from '../../src/ai-sdk.ts'
import { createMcpTool } from '../../src/index.ts'
import { createSqliteStore } from '../../src/server.ts'

const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-ai-sdk-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const open: AiSdkBridge[] = []
afterEach(async () => {
  for (const bridge of open.splice(0)) await bridge.close()
})

const cleanedUp: string[] = []
const booking = createMcpTool('book_room')
  .description('Book a room: the user picks a room, then a night count.')
  .parameters(z.object({ city: z.string() }))
  .elicits({
    pickRoom: { response: z.object({ room: z.enum(['single', 'double']) }), context: z.object({ city: z.string() }) },
    nights: z.object({ nights: z.int().min(1).max(14) }),
  })
  .execute(function* (params, ctx) {
    try {
      yield* ctx.log('info', `Looking for rooms in ${params.city}`)
      const room = yield* ctx.elicit('pickRoom', { message: `Which room in ${params.city}?`, city: params.city })
      if (room.action !== 'accept') return 'No room.'
      yield* ctx.notify('Room held', 1, 2)
      const nights = yield* ctx.elicit('nights', { message: 'How many nights?' })
      if (nights.action !== 'accept') return 'No nights.'
      return { booked: true, room: room.content.room, nights: nights.content.nights }
    } finally {
      cleanedUp.push(params.city)
    }
  })

function bridgeOf(options: Partial<Parameters<typeof createAiSdkBridge>[0]> = {}): AiSdkBridge {
  const bridge = createAiSdkBridge({ tools: [booking], ...options })
  open.push(bridge)
  return bridge
}

/** What `streamText` does with the tool: run `execute`, keep every (preliminary) output. */
async function execute(bridge: AiSdkBridge, input: unknown, signal?: AbortSignal): Promise<McpBridgeToolOutput[]> {
  const outputs: McpBridgeToolOutput[] = []
  const tool = bridge.tools().book_room!
  for await (const output of tool.execute(input, { toolCallId: 'call-1', ...(signal && { abortSignal: signal }) })) outputs.push(output as McpBridgeToolOutput)
  return outputs
}

/** The messages useChat sends after the browser put `output` over the part (`addToolOutput`). */
function messagesWith(output: McpBridgeToolOutput, after: UiMessageLike[] = []): UiMessageLike[] {
  return [
    { id: 'u1', role: 'user', parts: [{ type: 'text' }] },
    { id: 'a1', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'tool-book_room', toolCallId: 'call-1', state: 'output-available', input: { city: 'Oslo' }, output }] },
    ...after,
  ]
}

function writer() {
  const chunks: UiChunkLike[] = []
  return { chunks, write: (chunk: UiChunkLike) => void chunks.push(chunk) }
}

const finalOf = (chunks: UiChunkLike[]) => {
  const finals = chunks.filter((c): c is Extract<UiChunkLike, { type: 'tool-output-available' }> => c.type === 'tool-output-available' && !c.preliminary)
  expect(finals).toHaveLength(1)
  return finals[0]!.output as McpBridgeToolOutput
}

function answered(asked: McpBridgeToolOutput, content: Record<string, unknown>): McpBridgeToolOutput {
  if (asked.status !== 'input-required') throw new Error(`not a question: ${asked.status}`)
  const { refused: _refused, ...open } = asked
  return { ...open, status: 'answered', answer: { action: 'accept', content } }
}

async function askRoom(bridge: AiSdkBridge, city = 'Oslo') {
  const outputs = await execute(bridge, { city })
  const asked = outputs.at(-1)!
  expect(asked.status).toBe('input-required')
  return { outputs, asked }
}

describe('createAiSdkBridge: tools for streamText', () => {
  it('streams logs as preliminary outputs and ends the step on the question, which stops the loop', async () => {
    const bridge = bridgeOf()
    const { outputs, asked } = await askRoom(bridge)
    expect(outputs[0]).toMatchObject({ status: 'running', logs: [{ level: 'info', message: 'Looking for rooms in Oslo' }] })
    expect(asked).toMatchObject({ status: 'input-required', question: { key: 'pickRoom', message: 'Which room in Oslo?', context: { city: 'Oslo' } } })
    // The JSON Schema the model sees is the one MCP clients see.
    expect(bridge.tools().book_room!.inputSchema['~standard'].jsonSchema.input({ target: 'draft-07' })).toEqual(booking.jsonSchema.parameters)
    const step = (output: unknown, preliminary = false) => ({ steps: [{ toolResults: [{ toolName: 'book_room', output, preliminary }] }] })
    expect(bridge.waitingForUser(step(asked))).toBe(true)
    expect(bridge.waitingForUser(step(asked, true))).toBe(false)
    expect(bridge.waitingForUser(step(outputs[0]))).toBe(false)
    expect(bridge.calls.list()).toEqual([expect.objectContaining({ toolName: 'book_room', pendingKey: 'pickRoom' })])
  })

  it('the model reads results and where a call stands, never its token', async () => {
    const bridge = bridgeOf()
    const { asked } = await askRoom(bridge)
    const view = bridge.tools().book_room!.toModelOutput({ toolCallId: 'call-1', input: {}, output: asked })
    expect(view).toEqual({ type: 'text', value: "The tool is waiting for the user's answer to: Which room in Oslo?" })
    expect(JSON.stringify(view)).not.toContain(asked.token)
  })

  it('bad arguments end the call with a result the model can read', async () => {
    const outputs = await execute(bridgeOf(), { town: 'Oslo' })
    expect(outputs).toEqual([expect.objectContaining({ status: 'done', isError: true, result: expect.stringContaining('city') })])
  })

  it('a stopped response (abort signal) ends a call that is still running', async () => {
    const bridge = bridgeOf()
    const stop = new AbortController()
    const slow = createMcpTool('slow')
      .parameters(z.object({}))
      .elicits({})
      .execute(function* (_p, ctx) {
        yield* ctx.log('info', 'started')
        yield* suspend()
        return 'never'
      })
    const slowBridge = createAiSdkBridge({ tools: [slow] })
    open.push(slowBridge, bridge)
    const outputs: McpBridgeToolOutput[] = []
    for await (const o of slowBridge.tools().slow.execute({}, { toolCallId: 's', abortSignal: stop.signal })) {
      outputs.push(o as McpBridgeToolOutput)
      // Stop pressed while the tool runs.
      stop.abort()
    }
    expect(outputs.at(-1)).toMatchObject({ status: 'done', isError: true, result: expect.stringContaining('the response was stopped') })
  })
})

describe('createAiSdkBridge: prepare, the answer path', () => {
  it('takes an answer, runs the call to its next question, and holds the model while it is open', async () => {
    const bridge = bridgeOf()
    const { asked } = await askRoom(bridge)
    const w = writer()
    const turn = await bridge.prepare({ messages: messagesWith(answered(asked, { room: 'double' })), writer: w })
    const next = finalOf(w.chunks)
    expect(next).toMatchObject({ status: 'input-required', question: { key: 'nights' }, answers: ['Room: Double'], callId: asked.callId })
    expect(w.chunks.some((c) => c.type === 'tool-output-available' && c.preliminary && (c.output as McpBridgeToolOutput).progress?.message === 'Room held')).toBe(true)
    expect(turn.callModel).toBe(false)
    // The messages for convertToModelMessages hold what the model may read.
    expect(JSON.stringify(turn.messages)).not.toContain(asked.token)
  })

  it('the last answer finishes the call: its result goes to the part and to the model, which goes on', async () => {
    const bridge = bridgeOf()
    const { asked } = await askRoom(bridge)
    const w1 = writer()
    await bridge.prepare({ messages: messagesWith(answered(asked, { room: 'single' })), writer: w1 })
    const w2 = writer()
    const turn = await bridge.prepare({ messages: messagesWith(answered(finalOf(w1.chunks), { nights: 3 })), writer: w2 })
    expect(finalOf(w2.chunks)).toMatchObject({ status: 'done', result: { booked: true, room: 'single', nights: 3 }, answers: ['Room: Single', 'Nights: 3'] })
    expect(turn.callModel).toBe(true)
    expect(turn.messages[1]!.parts[1]!.output).toEqual({ booked: true, room: 'single', nights: 3 })
    expect(cleanedUp).toContain('Oslo')
  })

  it('refuses an answer its schema does not take, with the issues; the question stays open and a good answer goes on', async () => {
    const bridge = bridgeOf()
    const { asked } = await askRoom(bridge)
    const w = writer()
    const turn = await bridge.prepare({ messages: messagesWith(answered(asked, { room: 'suite' })), writer: w })
    const refused = finalOf(w.chunks)
    expect(refused).toMatchObject({
      status: 'input-required',
      question: { id: asked.status === 'input-required' ? asked.question.id : '' },
      refused: { code: 'INVALID_CONTENT', issues: [expect.objectContaining({ path: 'room' })] },
    })
    expect(turn.callModel).toBe(false)
    const again = writer()
    await bridge.prepare({ messages: messagesWith(answered(refused, { room: 'double' })), writer: again })
    expect(finalOf(again.chunks)).toMatchObject({ status: 'input-required', question: { key: 'nights' } })
  })

  it('with authenticate, a call runs as the signed-in user and only they may answer or cancel it', async () => {
    const seen: Array<string | undefined> = []
    const whoami = createMcpTool('whoami')
      .elicits({ ok: z.object({ ok: z.boolean() }) })
      .execute(function* (_p, ctx) {
        yield* ctx.elicit('ok', { message: 'Go?' })
        seen.push(ctx.auth?.subject)
        return { by: ctx.auth?.subject }
      })
    const bridge = bridgeOf({ tools: [whoami], authenticate: (request: Request) => ({ subject: request.headers.get('x-user') ?? 'nobody' }) })
    const as = (user: string) => new Request('http://127.0.0.1/api/chat', { headers: { 'x-user': user } })
    await expect(bridge.prepare({ messages: [], writer: writer() })).rejects.toThrow(/bridge\.prepare: `request` is required with createAiSdkBridge\(\{ authenticate \}\)/)
    expect(() => bridge.tools()).toThrow(/use the tools `prepare/)
    const started = await bridge.prepare({ messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text' }] }], writer: writer(), request: as('ada') })
    const outputs: McpBridgeToolOutput[] = []
    for await (const o of started.tools.whoami!.execute({}, { toolCallId: 'call-1' })) outputs.push(o as McpBridgeToolOutput)
    const asked = outputs.at(-1)!
    const withPart = (output: McpBridgeToolOutput): UiMessageLike[] => [
      { id: 'u1', role: 'user', parts: [{ type: 'text' }] },
      { id: 'a1', role: 'assistant', parts: [{ type: 'tool-whoami', toolCallId: 'call-1', state: 'output-available', input: {}, output }] },
    ]
    const bob = writer()
    await bridge.prepare({ messages: withPart(answered(asked, { ok: true })), writer: bob, request: as('bob') })
    expect(finalOf(bob.chunks)).toMatchObject({ status: 'input-required', refused: { code: 'FORBIDDEN' } })
    const bobCancels = writer()
    await bridge.prepare({
      messages: withPart({ ...(asked as Extract<McpBridgeToolOutput, { status: 'input-required' }>), status: 'cancel-requested' } as McpBridgeToolOutput),
      writer: bobCancels,
      request: as('bob'),
    })
    expect(finalOf(bobCancels.chunks)).toMatchObject({ status: 'done', result: expect.stringContaining('belongs to another signed-in user') })
    expect(seen).toEqual([])
    const ada = writer()
    await bridge.prepare({ messages: withPart(answered(asked, { ok: true })), writer: ada, request: as('ada') })
    expect(finalOf(ada.chunks)).toMatchObject({ status: 'done', result: { by: 'ada' } })
    expect(seen).toEqual(['ada'])
  })

  it('refuses an answer without the call’s token; the call stays answerable', async () => {
    const bridge = bridgeOf()
    const { asked } = await askRoom(bridge)
    const w = writer()
    await bridge.prepare({ messages: messagesWith({ ...answered(asked, { room: 'double' }), token: 'forged' }), writer: w })
    expect(finalOf(w.chunks)).toMatchObject({ status: 'input-required', refused: { code: 'WRONG_TOKEN' } })
    const ok = writer()
    await bridge.prepare({ messages: messagesWith(answered(asked, { room: 'double' })), writer: ok })
    expect(finalOf(ok.chunks)).toMatchObject({ question: { key: 'nights' } })
  })

  it('cancel ends the call cancelled (its finally runs) without calling the model; a stale answer afterwards changes nothing', async () => {
    const bridge = bridgeOf()
    const { asked } = await askRoom(bridge, 'Bergen')
    const { mcpBridge, callId, token } = asked
    const w = writer()
    const turn = await bridge.prepare({ messages: messagesWith({ mcpBridge, callId, token, status: 'cancel-requested' }), writer: w })
    expect(finalOf(w.chunks)).toMatchObject({ status: 'done', isError: true, cancelled: true, result: 'The tool call was cancelled: the user stopped it.' })
    expect(turn.callModel).toBe(false)
    expect(cleanedUp).toContain('Bergen')
    const stale = writer()
    await bridge.prepare({ messages: messagesWith(answered(asked, { room: 'double' })), writer: stale })
    expect(finalOf(stale.chunks)).toMatchObject({ status: 'done', isError: true, result: expect.stringMatching(/already finished.*Nothing was changed\.$/) })
  })

  it('a new message while a question is open is not given to the model, and the client is told why', async () => {
    const bridge = bridgeOf()
    const { asked } = await askRoom(bridge)
    const w = writer()
    const turn = await bridge.prepare({ messages: messagesWith(asked, [{ id: 'u2', role: 'user', parts: [{ type: 'text' }] }]), writer: w })
    expect(turn.callModel).toBe(false)
    expect(w.chunks).toEqual([{ type: 'error', errorText: expect.stringContaining('waiting for your answer') }])
  })

  it('leaves parts of other tools and outputs that are not its own alone', async () => {
    const bridge = bridgeOf()
    const messages: UiMessageLike[] = [
      { id: 'a', role: 'assistant', parts: [{ type: 'tool-weather', toolCallId: 'w', state: 'output-available', output: { status: 'answered' } }] },
    ]
    const w = writer()
    const turn = await bridge.prepare({ messages, writer: w })
    expect(w.chunks).toEqual([])
    expect(turn).toMatchObject({ callModel: true, messages })
  })

  it('an answer reaches another instance sharing the store, which replays the call from its journal', async () => {
    const path = join(dir, 'calls.db')
    const first = bridgeOf({ store: await createSqliteStore({ path }) })
    const second = bridgeOf({ store: await createSqliteStore({ path }), limits: { warmCalls: 0 } })
    const { asked } = await askRoom(first, 'Tromsø')
    const w = writer()
    await second.prepare({ messages: messagesWith(answered(asked, { room: 'single' })), writer: w })
    expect(finalOf(w.chunks)).toMatchObject({ status: 'input-required', question: { key: 'nights' } })
    // The log line from before the question is not repeated by the replay.
    expect(w.chunks.some((c) => c.type === 'tool-output-available' && (c.output as McpBridgeToolOutput).logs?.length)).toBe(false)
  })

  it('ctx.sample goes to the app’s AI SDK model', async () => {
    const model: LanguageModelV3 = {
      specificationVersion: 'v3',
      provider: 'fake',
      modelId: 'm',
      supportedUrls: {},
      doGenerate: () => Promise.reject(new Error('not used')),
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(c) {
            for (const p of [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: 'Bring a coat.' },
              { type: 'text-end', id: 't' },
            ] as const)
              c.enqueue(p)
            c.close()
          },
        }),
      }),
    }
    const tip = createMcpTool('tip')
      .parameters(z.object({}))
      .requires({ sampling: true })
      .elicits({})
      .execute(function* (_p, ctx) {
        return (yield* ctx.sample({ prompt: 'A tip?', maxTokens: 20 })).text
      })
    const bridge = createAiSdkBridge({ tools: [tip], model })
    open.push(bridge)
    const outputs: unknown[] = []
    for await (const o of bridge.tools().tip.execute({}, { toolCallId: 't' })) outputs.push(o)
    expect(outputs.at(-1)).toMatchObject({ status: 'done', result: 'Bring a coat.' })
  })
})

describe('createAiSdkBridge: clients', () => {
  it("bounds the calls of one client (`client`), and without one no person uses up the others' share", async () => {
    const bridge = bridgeOf({ limits: { maxCallsPerClient: 2 } })
    const ask = async (client?: string) => {
      let last: McpBridgeToolOutput | undefined
      for await (const o of bridge.tools(client === undefined ? {} : { client }).book_room!.execute({ city: 'Oslo' }, { toolCallId: 'c' })) last = o as McpBridgeToolOutput
      return last!
    }
    expect((await ask('ada')).status).toBe('input-required')
    expect((await ask('ada')).status).toBe('input-required')
    expect(await ask('ada')).toMatchObject({ status: 'done', isError: true, result: expect.stringContaining('limits.maxCallsPerClient') })
    expect((await ask('grace')).status).toBe('input-required')
    // No client key: each call counts apart.
    for (let i = 0; i < 3; i++) expect((await ask()).status).toBe('input-required')
  })
})

describe('createAiSdkBridge: options', () => {
  it('names what is wrong', () => {
    expect(() => createAiSdkBridge({ tools: [booking], limits: { idleTimeoutMs: 5 } })).toThrow(/limits\.idleTimeoutMs: .*at least 1000 ms/)
    expect(() => createAiSdkBridge({ tools: [booking], model: 'gpt-4o' as never })).toThrow(/model: .*not a model id string/)
    expect(() => createAiSdkBridge({ tools: [booking], limits: { maxSteps: 3 } as never })).toThrow(/maxSteps/)
    expect(() => createAiSdkBridge({ tools: [{} as never] })).toThrow(/createAiSdkBridge\(\{ tools \}\)/)
  })

  it('prepare says what it takes', async () => {
    const bridge = bridgeOf()
    await expect(bridge.prepare({ messages: [], writer: undefined as never })).rejects.toThrow(/writer: .*createUIMessageStream/)
    await expect(bridge.prepare({ messages: [{ role: 'robot' } as never], writer: writer() })).rejects.toThrow(/messages\.0/)
  })
})
