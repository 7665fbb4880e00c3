/**
 * The documented setup, for real: `@ai-sdk/openai` pointed at an OpenAI-compatible server (as a
 * local Ollama would be), adapted with `createAiSdkModel`, driving the chat handler. The "server" is a
 * tiny streaming chat-completions endpoint on 127.0.0.1 that calls a tool, then answers.
 */
import { createOpenAI } from '@ai-sdk/openai'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../../src/index.ts'
import { createChatHandler, createAiSdkModel } from '../../src/server.ts'
import { type ChatStreamEvent, readNdjson } from '../../src/client.ts'

let server: Server | undefined
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())))

function sse(chunks: unknown[]): string {
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n'
}

const chunk = (delta: unknown, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'llama3.1',
  choices: [{ index: 0, delta, finish_reason: finish }],
})

describe('createAiSdkModel with @ai-sdk/openai against an OpenAI-compatible server', () => {
  it('streams text and runs the tool the model calls', async () => {
    const requests: Array<{ messages: Array<{ role: string }>; tools?: unknown[] }> = []
    server = createServer((req, res) => {
      let body = ''
      req.on('data', (d) => (body += d))
      req.on('end', () => {
        const parsed = JSON.parse(body)
        requests.push(parsed)
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        const hasToolResult = parsed.messages.some((m: { role: string }) => m.role === 'tool')
        res.end(
          hasToolResult
            ? sse([chunk({ role: 'assistant', content: 'It is ' }), chunk({ content: '21°C.' }), chunk({}, 'stop')])
            : sse([
                chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_w1', type: 'function', function: { name: 'weather', arguments: '' } }] }),
                chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Oslo"}' } }] }),
                chunk({}, 'tool_calls'),
              ]),
        )
      })
    })
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
    const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`

    const weather = createMcpTool('weather')
      .parameters(z.object({ city: z.string() }))
      .elicits({})
      .execute(function* (params) {
        return { city: params.city, celsius: 21 }
      })
    const chat = createChatHandler({ tools: [weather], model: createAiSdkModel(createOpenAI({ baseURL, apiKey: 'ollama' }).chat('llama3.1')) })
    const res = await chat(
      new Request('http://127.0.0.1/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] }] }),
      }),
    )
    const events: ChatStreamEvent[] = []
    for await (const e of readNdjson(res.body!)) events.push(e as ChatStreamEvent)
    await chat.close()

    expect(events.map((e) => e.type)).toEqual(['tool_call', 'tool_result', 'text_delta', 'text_delta', 'conversation_state'])
    expect(events[0]).toMatchObject({ toolName: 'weather', params: { city: 'Oslo' } })
    expect(events[1]).toMatchObject({ result: { city: 'Oslo', celsius: 21 } })
    expect(requests).toHaveLength(2)
    expect(requests[0]!.tools).toMatchObject([{ type: 'function', function: { name: 'weather' } }])
    expect(requests[1]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool'])
  })
})
