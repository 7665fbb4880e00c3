/**
 * Rich tool results: `withContent` checks the blocks a tool returns; `.returns()` checks the
 * structured part; MCP clients get the blocks and `structuredContent`; the chat model reads
 * images as images and resources in words; a stored outcome (JSON) says the same again.
 */
import { Client, InMemoryTransport, type CallToolResult } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool, withContent } from '../../src/index.ts'
import { ToolContentError } from '../../src/errors.ts'
import { createChatHandler, toolResultOf } from '../../src/server.ts'
import { createMcpServer } from '../../src/mcp.ts'
import { bridgeOutcomeOf, storedOutcome } from '../../src/calls/call-record.ts'
import { readChatEvents, type ChatStreamEvent } from '../../src/client.ts'
import { createScriptedModel } from '../../src/testing.ts'
import type { McpMessage } from '../../src/index.ts'

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
const chart = createMcpTool('chart')
  .returns(z.object({ points: z.int() }))
  .elicits({})
  .execute(function* () {
    return withContent(
      [
        { type: 'text', text: 'Your chart:' },
        { type: 'image', data: PIXEL, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///chart.csv', mimeType: 'text/csv', text: 'x,y\n1,2' } },
        { type: 'resource_link', uri: 'https://example.com/chart', name: 'chart page' },
      ],
      { points: 12 },
    )
  })
const wrongShape = createMcpTool('wrong_shape')
  .returns(z.object({ points: z.int() }))
  .elicits({})
  .execute(function* () {
    return withContent([{ type: 'text', text: 'x' }], { points: 'many' } as never)
  })

describe('withContent', () => {
  it('refuses what is not MCP content, saying what each block may be', () => {
    expect(() => withContent([{ type: 'video', data: 'x' } as never])).toThrow(ToolContentError)
    expect(() => withContent([])).toThrow(/withContent\(\): .*give at least one block\. Each block is \{ type: 'text', text \}/)
  })

  it('reaches an MCP client as blocks with structuredContent; a structured part .returns() refuses fails the call', async () => {
    const server = createMcpServer({ name: 'rich', version: '1', tools: [chart, wrongShape] })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    const handle = server.listen({ transport: serverSide })
    const client = new Client({ name: 'c', version: '1' })
    await client.connect(clientSide)
    try {
      const result = (await client.callTool({ name: 'chart', arguments: {} })) as CallToolResult
      expect(result.content.map((c) => c.type)).toEqual(['text', 'image', 'resource', 'resource_link'])
      expect(result.content[1]).toEqual({ type: 'image', data: PIXEL, mimeType: 'image/png' })
      expect(result.structuredContent).toEqual({ points: 12 })
      const wrong = (await client.callTool({ name: 'wrong_shape', arguments: {} })) as CallToolResult
      expect(wrong.isError).toBe(true)
      expect(JSON.stringify(wrong.content)).toMatch(/points/)
    } finally {
      await client.close()
      await handle.close()
      await server.close()
    }
  })

  it('the chat model reads the image as an image and the resources in words; the client gets the content to show', async () => {
    let seen: McpMessage | undefined
    const scripted = createScriptedModel({
      onUserMessage: [{ match: /chart/, reply: { toolCalls: [{ name: 'chart', input: {} }] } }],
      onToolResult: () => 'Here it is.',
    })
    // What the model is given: the last message of each request.
    const model = {
      id: scripted.id,
      stream: (request: Parameters<typeof scripted.stream>[0], signal: AbortSignal) => ((seen = request.messages.at(-1)), scripted.stream(request, signal)),
    }
    const handler = createChatHandler({ tools: [chart], model })
    const response = await handler(
      new Request('http://127.0.0.1/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'a chart' }] }] }),
      }),
    )
    const events: ChatStreamEvent[] = []
    for await (const e of readChatEvents(response.body!)) events.push(e)
    const result = events.find((e) => e.type === 'tool_result')
    expect(result).toMatchObject({ result: { kind: 'mcp-tool-content', structured: { points: 12 } } })
    const block = seen?.content[0]
    expect(block?.type === 'tool_result' && block.content.map((c) => (c.type === 'text' ? c.text : c.type))).toEqual([
      'Your chart:',
      'image',
      'x,y\n1,2',
      '[chart page: https://example.com/chart]',
    ])
    await handler.close()
  })

  it('a stored outcome (JSON, as every store keeps it) says the same again', async () => {
    const value = withContent([{ type: 'image', data: PIXEL, mimeType: 'image/png' }], { points: 1 })
    const stored = JSON.parse(JSON.stringify(storedOutcome({ status: 'completed', result: value })))
    expect(toolResultOf(bridgeOutcomeOf(stored))).toEqual({ content: [{ type: 'image', data: PIXEL, mimeType: 'image/png' }], structuredContent: { points: 1 } })
  })
})
