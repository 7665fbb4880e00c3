/**
 * Prompts: `createMcpPrompt` checks what it is given when the prompt is defined, and
 * `createMcpServer({ prompts })` serves them to the official clients — SDK v2 over HTTP and
 * stdio-like memory transports, SDK 1.17 and 1.32 — with arguments checked by their schema.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client'
import { Client as Client117 } from 'mcp-sdk-1-17/client/index.js'
import { InMemoryTransport as Memory117 } from 'mcp-sdk-1-17/inMemory.js'
import { Client as Client132 } from 'mcp-sdk-1-32/client/index.js'
import { InMemoryTransport as Memory132 } from 'mcp-sdk-1-32/inMemory.js'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpPrompt } from '../../src/index.ts'
import { PromptDefinitionError } from '../../src/errors.ts'
import { createMcpServer, type BridgeMcpServer } from '../../src/mcp.ts'
import { bookFlight } from '../fixtures/book-flight.ts'
import { serveHttp } from '../mcp/support/mcp-clients.ts'

const review = createMcpPrompt('review_code')
  .title('Review code')
  .description('Ask for a review of some code')
  .arguments(z.object({ code: z.string().describe('The code to review'), focus: z.enum(['security', 'style']).optional().describe('What to look at') }))
  .messages(({ code, focus }) => `Please review this code${focus ? ` for ${focus}` : ''}:\n\n${code}`)

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
const explain = createMcpPrompt('explain_chart')
  .description('Explain a chart, given as an image and a resource')
  .messages(async () => [
    { role: 'user', content: { type: 'image', data: PIXEL, mimeType: 'image/png' } },
    { role: 'user', content: { type: 'resource', resource: { uri: 'file:///data.csv', mimeType: 'text/csv', text: 'a,b\n1,2' } } },
    { role: 'user', content: { type: 'text', text: 'What does this chart show?' } },
  ])
const broken = createMcpPrompt('broken').messages(() => [{ role: 'system', content: { type: 'text', text: 'x' } }] as never)

const open: Array<{ close(): Promise<unknown> }> = []
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close()
})

/** An SDK v2 client on an in-memory pipe to `server` (all closed after the test). */
async function connectV2(server: BridgeMcpServer): Promise<Client> {
  open.push(server)
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const handle = server.listen({ transport: serverSide })
  const client = new Client({ name: 'v2', version: '1' })
  await client.connect(clientSide)
  open.push({ close: async () => (await client.close(), await handle.close()) })
  return client
}

function serve(): BridgeMcpServer {
  const server = createMcpServer({ name: 'prompts-test', version: '1.0.0', tools: [bookFlight], prompts: [review, explain, broken] })
  open.push(server)
  return server
}

describe('createMcpPrompt', () => {
  it('lists its arguments as MCP does: name, description, required', () => {
    expect(review.arguments).toEqual([
      { name: 'code', description: 'The code to review', required: true },
      { name: 'focus', description: 'What to look at', required: false },
    ])
  })

  it('refuses what MCP cannot carry, naming the prompt and the fix', () => {
    expect(() => createMcpPrompt('add').arguments(z.object({ a: z.number(), b: z.string(), c: z.boolean() }))).toThrow(
      /^Prompt "add": MCP passes prompt arguments as strings; "a", "c" are not a string field\. Use z\.string\(\) or a z\.enum of strings/,
    )
    expect(() => createMcpPrompt('has space')).toThrow(PromptDefinitionError)
    expect(() => createMcpPrompt('x').description('')).toThrow(/\.description\(\) takes a non-empty string/)
    expect(() => createMcpPrompt('x').messages('hi' as never)).toThrow(/\.messages\(\) takes a function/)
  })
})

describe('served by createMcpServer', () => {
  it('SDK v2 over HTTP: lists the prompts, gets one with its arguments, refuses wrong ones clearly (-32602)', async () => {
    const http = await serveHttp(serve())
    open.push(http)
    const client = new Client({ name: 'v2', version: '1' })
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client')
    await client.connect(new StreamableHTTPClientTransport(http.url))
    open.push(client)
    expect(client.getServerCapabilities()?.prompts).toBeDefined()
    const { prompts } = await client.listPrompts()
    expect(prompts.map((p) => p.name)).toEqual(['review_code', 'explain_chart', 'broken'])
    expect(prompts[0]).toMatchObject({
      title: 'Review code',
      description: 'Ask for a review of some code',
      arguments: [
        { name: 'code', required: true },
        { name: 'focus', required: false },
      ],
    })
    const got = await client.getPrompt({ name: 'review_code', arguments: { code: 'let x = 1', focus: 'style' } })
    expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Please review this code for style:\n\nlet x = 1' } }])
    await expect(client.getPrompt({ name: 'review_code', arguments: { focus: 'speed' } })).rejects.toThrow(/Arguments of prompt "review_code": code: .*; focus: /)
    await expect(client.getPrompt({ name: 'nope' })).rejects.toThrow(/Unknown prompt "nope"\. This server has: "review_code", "explain_chart", "broken"\./)
    await expect(client.getPrompt({ name: 'broken' })).rejects.toThrow(/Prompt "broken": \.messages\(\) returned what is not an MCP prompt message/)
  })

  it('rich messages (an image, an embedded resource) reach SDK 1.17 and 1.32 clients as they were made', async () => {
    for (const [Client1, Memory] of [
      [Client117, Memory117],
      [Client132, Memory132],
    ] as const) {
      const server = serve()
      const [clientSide, serverSide] = Memory.createLinkedPair()
      const handle = server.listen({ transport: serverSide as never })
      // The two SDK versions' classes differ in detail; the test uses the part they share.
      const client = new (Client1 as unknown as typeof Client132)({ name: 'sdk-1', version: '1' }, { capabilities: {} })
      await client.connect(clientSide as never)
      open.push({ close: async () => (await client.close(), await handle.close()) })
      const got = await client.getPrompt({ name: 'explain_chart' })
      expect(got.messages.map((m) => m.content.type)).toEqual(['image', 'resource', 'text'])
      expect(got.messages[0]!.content).toEqual({ type: 'image', data: PIXEL, mimeType: 'image/png' })
    }
  })

  it('a server with no prompts declares no prompts capability', async () => {
    const client = await connectV2(createMcpServer({ name: 'no-prompts', version: '1.0.0', tools: [bookFlight] }))
    expect(client.getServerCapabilities()?.prompts).toBeUndefined()
  })

  it('completes arguments as the user types: an enum from its options, others from their completer, with the other arguments as context', async () => {
    const trip = createMcpPrompt('plan_trip')
      .arguments(z.object({ country: z.string(), city: z.string(), pace: z.enum(['slow', 'steady', 'fast']).optional() }))
      .complete({
        city: (typed, { arguments: given }) =>
          (given.country === 'NO' ? ['Oslo', 'Bergen', 'Bodø'] : ['Paris', 'Porto']).filter((c) => c.toLowerCase().startsWith(typed.toLowerCase())),
      })
      .messages(({ city }) => `Plan a day in ${city}`)
    expect(() => createMcpPrompt('x').complete({ nope: () => [] } as never)).toThrow(/\.complete\(\) names "nope", which is not an argument/)
    const client = await connectV2(createMcpServer({ name: 'complete', version: '1.0.0', tools: [], prompts: [trip] }))
    expect(client.getServerCapabilities()?.completions).toBeDefined()
    const ref = { type: 'ref/prompt' as const, name: 'plan_trip' }
    expect((await client.complete({ ref, argument: { name: 'pace', value: 's' } })).completion).toEqual({ values: ['slow', 'steady'], total: 2, hasMore: false })
    expect((await client.complete({ ref, argument: { name: 'city', value: 'b' }, context: { arguments: { country: 'NO' } } })).completion.values).toEqual(['Bergen', 'Bodø'])
    expect((await client.complete({ ref, argument: { name: 'country', value: '' } })).completion.values).toEqual([])
    await expect(client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } })).rejects.toThrow(/Unknown prompt "nope"/)
  })

  it('refuses a prompts option that is not prompts, or two with one name', () => {
    expect(() => createMcpServer({ name: 's', version: '1', tools: [], prompts: [{}] as never })).toThrow(
      /^createMcpServer: prompts\[0\] is not a prompt: make one with createMcpPrompt/,
    )
    expect(() => createMcpServer({ name: 's', version: '1', tools: [], prompts: [review, review] })).toThrow(
      /^createMcpServer: prompts\[1\] is a second prompt named "review_code"/,
    )
  })
})
