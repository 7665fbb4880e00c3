/**
 * The official SDK 1.x clients as peers: 1.17 (negotiates 2025-06-18) and 1.32 (2025-11-25), in
 * memory. Each books a flight with the real tool shapes — the server must send what the
 * negotiated version allows (one sampling content block, not an array, for 2025-06-18).
 */
import { describe, expect, it } from 'vitest'
import { Client as Client117 } from 'mcp-sdk-1-17/client/index.js'
import { InMemoryTransport as Memory117 } from 'mcp-sdk-1-17/inMemory.js'
import { CreateMessageRequestSchema as Sample117, ElicitRequestSchema as Elicit117 } from 'mcp-sdk-1-17/types.js'
import { Client as Client132 } from 'mcp-sdk-1-32/client/index.js'
import { InMemoryTransport as Memory132 } from 'mcp-sdk-1-32/inMemory.js'
import { CreateMessageRequestSchema as Sample132, ElicitRequestSchema as Elicit132 } from 'mcp-sdk-1-32/types.js'
import { z } from 'zod'
import { createMcpTool, extractModelContext, MODEL_CONTEXT_EXTENSION } from '../../src/index.ts'
import { createMcpServer } from '../../src/mcp.ts'
import { bookFlight } from '../fixtures/book-flight.ts'

const peers = [
  { name: 'SDK 1.17 (2025-06-18)', Client: Client117, Memory: Memory117, Elicit: Elicit117, Sample: Sample117, version: '2025-06-18' },
  { name: 'SDK 1.32 (2025-11-25)', Client: Client132, Memory: Memory132, Elicit: Elicit132, Sample: Sample132, version: '2025-11-25' },
] as const

describe.each(peers)('$name client', (peer) => {
  it('books a flight: elicitations and sampling in shapes its version allows', async () => {
    const server = createMcpServer({ name: 'sdk1', version: '1.0.0', tools: [bookFlight] })
    const [clientSide, serverSide] = peer.Memory.createLinkedPair()
    server.listen({ transport: serverSide as never })
    // The two SDK versions' classes differ in detail; the test uses the part they share.
    const ClientClass = peer.Client as unknown as typeof Client132
    const client = new ClientClass({ name: 'sdk1-test', version: '1.0.0' }, { capabilities: { elicitation: {}, sampling: {}, experimental: { [MODEL_CONTEXT_EXTENSION]: {} } } })
    const asked: Array<Record<string, unknown>> = []
    const answers = [{ flightId: 'SH-142' }, { row: 3, seat: 'B' }]
    client.setRequestHandler(
      peer.Elicit as never,
      (async (request: { params: Record<string, unknown> }) => {
        asked.push(request.params)
        return { action: 'accept', content: answers.shift() }
      }) as never,
    )
    const samples: Array<Record<string, unknown>> = []
    client.setRequestHandler(
      peer.Sample as never,
      (async (request: { params: Record<string, unknown> }) => {
        samples.push(request.params)
        return { role: 'assistant', content: { type: 'text', text: 'Pack light.' }, model: 'm' }
      }) as never,
    )
    await client.connect(clientSide as never)
    try {
      expect(client.getServerVersion()?.name).toBe('sdk1')
      const result = (await client.callTool({ name: 'book_flight', arguments: { from: 'OSL', destination: 'BER' } }, undefined, { timeout: 30_000 })) as {
        isError?: boolean
        structuredContent?: unknown
        content: Array<{ text?: string }>
      }
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy()
      expect(result.structuredContent).toMatchObject({ ticketNumber: 'TK-SH-142-3B', tip: 'Pack light.' })
      expect(asked).toHaveLength(2)
      // `mode` exists from 2025-11-25 on: a 2025-06-18 client never sees it.
      expect(asked.map((a) => a.mode)).toEqual(peer.version === '2025-11-25' ? ['form', 'form'] : [undefined, undefined])
      expect(extractModelContext({ message: asked[0]!.message as string, schema: asked[0]!.requestedSchema as never }).context).toMatchObject({
        flights: [{ id: 'SH-142' }, { id: 'CA-287' }],
      })
      expect(samples).toHaveLength(1)
      const contents = (samples[0]!.messages as Array<{ content: unknown }>).map((m) => m.content)
      expect(contents.every((c) => Array.isArray(c) === (peer.version === '2025-11-25'))).toBe(true)
    } finally {
      await client.close()
      await server.close()
    }
  }, 30_000)
})

describe('SDK 1.17 (2025-06-18) client and newer form fields', () => {
  it('is not offered a tool whose form needs multi-select, and is told why when it calls it anyway', async () => {
    const pickTags = createMcpTool('pick_tags')
      .elicits({ tags: z.object({ tags: z.array(z.enum(['beach', 'city', 'mountains'])) }) })
      .execute(function* (_p, ctx) {
        return yield* ctx.elicit('tags', { message: 'Which?' })
      })
    const plain = createMcpTool('plain')
      .elicits({})
      .execute(function* () {
        return 'ok'
      })
    const server = createMcpServer({ name: 'sdk1', version: '1.0.0', tools: [pickTags, plain] })
    const [clientSide, serverSide] = Memory117.createLinkedPair()
    server.listen({ transport: serverSide as never })
    const client = new Client117({ name: 'old', version: '1.0.0' }, { capabilities: { elicitation: {} } })
    await client.connect(clientSide as never)
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['plain'])
      await expect(client.callTool({ name: 'pick_tags', arguments: {} })).rejects.toThrow(/several choices at once or for titled choices, which MCP 2025-06-18 forms cannot show/)
    } finally {
      await client.close()
      await server.close()
    }
  }, 30_000)
})
