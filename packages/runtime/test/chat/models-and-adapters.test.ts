// The spec's own v3 types (the v3 packages run on Node 20): a provider's model must fit `createAiSdkModel` as it is.
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createMcpTool, type McpMessage } from '../../src/index.ts'
import { CallRegistry, chatMiddleware, createAiSdkModel, type ModelStreamPart } from '../../src/server.ts'
import { nextEvent } from '../../src/calls/live-call.ts'
import { createScriptedModel, createTestClock } from '../../src/testing.ts'

async function collect(stream: AsyncIterable<ModelStreamPart>) {
  const parts: ModelStreamPart[] = []
  for await (const p of stream) parts.push(p)
  return parts
}

function fakeV3(parts: LanguageModelV3StreamPart[]): LanguageModelV3 & { calls: LanguageModelV3CallOptions[] } {
  const calls: LanguageModelV3CallOptions[] = []
  return {
    specificationVersion: 'v3',
    provider: 'fake',
    modelId: 'fake-1',
    supportedUrls: {},
    calls,
    doGenerate: () => Promise.reject(new Error('not used')),
    async doStream(options) {
      calls.push(options)
      return { stream: new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) }) }
    },
  }
}

const conversation: McpMessage[] = [
  { role: 'user', content: [{ type: 'text', text: 'Book it' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Sure' },
      { type: 'tool_use', id: 't1', name: 'book_flight', input: { from: 'A' } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: '{"booked":true}' }] }] },
]

describe('createAiSdkModel (AI SDK language models, specification v3 and v4)', () => {
  it('sends MCP content blocks as the spec prompt and streams text and tool calls back', async () => {
    const model = fakeV3([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 'x' },
      { type: 'text-delta', id: 'x', delta: 'Done' },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'choose_color', input: '{"hint":"blue"}' },
      {
        type: 'finish',
        usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      } as LanguageModelV3StreamPart,
    ])
    const chat = createAiSdkModel(model)
    expect(chat.id).toBe('fake:fake-1')
    const parts = await collect(
      chat.stream(
        { system: 'Be brief', messages: conversation, tools: [{ name: 'choose_color', description: 'Pick', inputSchema: { type: 'object' } }], maxTokens: 50 },
        new AbortController().signal,
      ),
    )
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Done' },
      { type: 'tool-call', id: 'c2', name: 'choose_color', input: { hint: 'blue' } },
      { type: 'finish', reason: 'tool-calls' },
    ])
    const call = model.calls[0]!
    expect(call.maxOutputTokens).toBe(50)
    expect(call.tools).toEqual([{ type: 'function', name: 'choose_color', description: 'Pick', inputSchema: { type: 'object' } }])
    expect(call.prompt).toEqual([
      { role: 'system', content: 'Be brief' },
      { role: 'user', content: [{ type: 'text', text: 'Book it' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Sure' },
          { type: 'tool-call', toolCallId: 't1', toolName: 'book_flight', input: { from: 'A' } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'book_flight', output: { type: 'text', value: '{"booked":true}' } }] },
    ])
  })

  it('surfaces stream errors and non-JSON tool input clearly, and refuses other spec versions', async () => {
    await expect(
      collect(createAiSdkModel(fakeV3([{ type: 'error', error: new Error('rate limited') }])).stream({ messages: [], tools: [] }, new AbortController().signal)),
    ).rejects.toThrow('rate limited')
    await expect(
      collect(createAiSdkModel(fakeV3([{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: '{oops' }])).stream({ messages: [], tools: [] }, new AbortController().signal)),
    ).rejects.toThrow(/tool call t with input that is not JSON/)
    expect(() => createAiSdkModel({ specificationVersion: 'v2' } as never)).toThrow(
      /specification v3 or v4, e\.g\. createOpenAI\(\.\.\.\)\.chat\('gpt-4o-mini'\) \(got specification v2\)/,
    )
  })

  it('takes a v4 model the same way (v4 only adds what this adapter does not read)', async () => {
    const v4 = { ...fakeV3([{ type: 'text-delta', id: 'x', delta: 'Hi' }, { type: 'ping' } as never]), specificationVersion: 'v4' as const }
    expect(await collect(createAiSdkModel(v4).stream({ messages: conversation, tools: [] }, new AbortController().signal))).toEqual([{ type: 'text-delta', text: 'Hi' }])
    expect(v4.calls[0]!.prompt.map((m) => m.role)).toEqual(['user', 'assistant', 'tool'])
  })

  it('wraps base64 file data as each version expects (v3: the string; v4: { type: "data", data })', async () => {
    const image: McpMessage[] = [{ role: 'user', content: [{ type: 'image', data: 'iVBORw0K', mimeType: 'image/png' }] }]
    const v3 = fakeV3([])
    const v4 = { ...fakeV3([]), specificationVersion: 'v4' as const }
    for (const model of [v3, v4]) await collect(createAiSdkModel(model).stream({ messages: image, tools: [] }, new AbortController().signal))
    expect(v3.calls[0]!.prompt).toEqual([{ role: 'user', content: [{ type: 'file', data: 'iVBORw0K', mediaType: 'image/png' }] }])
    expect(v4.calls[0]!.prompt).toEqual([{ role: 'user', content: [{ type: 'file', data: { type: 'data', data: 'iVBORw0K' }, mediaType: 'image/png' }] }])
  })
})

describe('createScriptedModel', () => {
  it('maps user text to replies and tool calls by rules, streams text in chunks, answers samples', async () => {
    const model = createScriptedModel({
      chunk: 4,
      onUserMessage: [{ match: /color/, reply: { text: 'Opening the picker', toolCalls: [{ name: 'choose_color', input: {} }] } }],
      onSample: (prompt, structured) => (structured ? { cell: 4 } : `tip for ${prompt}`),
    })
    const parts = await collect(
      model.stream(
        { messages: [{ role: 'user', content: [{ type: 'text', text: 'pick a color' }] }], tools: [{ name: 'choose_color', inputSchema: {} }] },
        new AbortController().signal,
      ),
    )
    expect(parts.filter((p) => p.type === 'text-delta').map((p) => (p as { text: string }).text)).toEqual(['Open', 'ing ', 'the ', 'pick', 'er'])
    expect(parts.at(-2)).toMatchObject({ type: 'tool-call', name: 'choose_color' })
    const sample = await collect(model.stream({ messages: [{ role: 'user', content: [{ type: 'text', text: 'LAX' }] }], tools: [] }, new AbortController().signal))
    expect(sample[0]).toEqual({ type: 'text-delta', text: 'tip ' })
  })
})

describe('createScriptedModel rules', () => {
  it('see the first 1,000 characters of a message, so no rule can be made to backtrack over 100 KB', async () => {
    const seen: number[] = []
    const model = createScriptedModel({
      onUserMessage: [
        {
          match: (text) => {
            seen.push(text.length)
            return false
          },
          reply: 'never',
        },
        { match: /x$/, reply: 'ends with x' },
      ],
      fallback: 'fallback',
    })
    const parts = []
    for await (const part of model.stream({ messages: [{ role: 'user', content: [{ type: 'text', text: `${'a'.repeat(100_000)}x` }] }], tools: [] }, new AbortController().signal))
      parts.push(part)
    expect(seen).toEqual([1_000])
    // The trailing "x" lies beyond what rules see.
    expect(parts[0]).toEqual({ type: 'text-delta', text: 'fallback' })
  })
})

describe('createScriptedModel call ids', () => {
  it("are random and 128-bit, so one user cannot name (or collide with) another user's call", async () => {
    const model = createScriptedModel({
      onUserMessage: [
        {
          match: /go/,
          reply: {
            toolCalls: [
              { name: 'a', input: {} },
              { name: 'b', input: {} },
            ],
          },
        },
      ],
    })
    const ids: string[] = []
    for (let turn = 0; turn < 2; turn++) {
      for await (const part of model.stream({ messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }], tools: [] }, new AbortController().signal)) {
        if (part.type === 'tool-call') ids.push(part.id)
      }
    }
    expect(ids).toHaveLength(4)
    for (const id of ids) expect(id).toMatch(/^call_[0-9a-f]{32}$/)
    expect(new Set(ids).size).toBe(4)
  })
})

describe('CallRegistry: a parked call expires unless claimed', () => {
  it('aborts a call nobody claimed within idleTimeoutMs (its finally runs); a claim calls the expiry off', async () => {
    const clock = createTestClock()
    const cleaned: string[] = []
    const tool = createMcpTool('idle')
      .elicits({ a: z.object({ ok: z.boolean() }) })
      .execute(function* (_p, ctx) {
        try {
          return yield* ctx.elicit('a', { message: 'anyone?' })
        } finally {
          cleaned.push('finally')
        }
      })
    const registry = new CallRegistry({
      limits: { idleTimeoutMs: 60_000, maxActiveCalls: 10, maxCallsPerClient: 10 },
      surface: 'chat',
      clock,
    })
    const call = await registry.start({ tool, params: {}, callId: 'c1', client: 'test', extra: undefined })
    for (let e = await nextEvent(call); e && e.type !== 'elicit'; e = await nextEvent(call));
    const question = { id: 'c1#1', key: 'a', wire: {} }
    await registry.park(call, question)
    await clock.advance(59_000)
    // A request is serving it: no expiry while it does.
    expect(await registry.resume('c1', { token: call.token, replay: () => undefined })).toMatchObject({ ok: true, replayed: false })
    await clock.advance(120_000)
    expect(registry.size).toBe(1)
    await registry.park(call, question)
    await clock.advance(59_999)
    expect(registry.size).toBe(1)
    await clock.advance(1)
    expect(await call.host.outcome).toEqual({ status: 'aborted', reason: 'no answer came within 60 s (limits.idleTimeoutMs)' })
    expect(cleaned).toEqual(['finally'])
    expect(registry.size).toBe(0)
    expect(await registry.finishedHow('c1')).toBe('it was aborted: no answer came within 60 s (limits.idleTimeoutMs)')
    await registry.close()
  })
})

describe('chatMiddleware', () => {
  it('serves only its path and passes everything else on', async () => {
    const handler = vi.fn(async () => new Response('ok'))
    const middleware = chatMiddleware(handler, { path: '/api/chat' })
    const next = vi.fn()
    middleware({ url: '/other?x=1' } as IncomingMessage, {} as ServerResponse, next)
    expect(next).toHaveBeenCalledTimes(1)
    expect(handler).not.toHaveBeenCalled()
  })
})
