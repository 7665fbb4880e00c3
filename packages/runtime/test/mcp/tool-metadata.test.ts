/**
 * Tool metadata over MCP, with the official SDK client of each generation: title, annotations,
 * icons and outputSchema in tools/list; results of a tool with `.returns()` validated and sent as
 * structuredContent that matches the schema; an invalid result is a tool error naming the field,
 * never sent; serverInfo's title, description and website.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../../src/index.ts'
import { createMcpServer, type BridgeMcpServer } from '../../src/mcp.ts'
import { OptionsError } from '../../src/errors.ts'
import { connectClient, GENERATIONS, textOf, type ScriptedClient } from './support/mcp-clients.ts'

const open: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  for (const c of open.splice(0)) await c.close()
})

const quote = z.object({ price: z.number().min(0), currency: z.enum(['EUR', 'USD']), note: z.string().optional() })
const ICON = 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4='

const priceTrip = createMcpTool('price_trip')
  .title('Price a trip')
  .description('Quote a price for a trip.')
  .annotations({ readOnlyHint: true, openWorldHint: false })
  .icons([{ src: ICON, mimeType: 'image/svg+xml', sizes: ['any'] }])
  .returns(quote)
  .parameters(z.object({ nights: z.int().min(1) }))
  .elicits({})
  .execute(function* ({ nights }) {
    // A negative price for 13 nights: the schema refuses it.
    return nights === 13 ? { price: -1, currency: 'EUR' as const } : { price: nights * 80, currency: 'EUR' as const, extra: 'dropped' }
  })

function serve(): BridgeMcpServer {
  const server = createMcpServer({
    name: 'metadata-test',
    version: '2.0.0',
    title: 'Trip tools',
    description: 'Tools for planning trips.',
    websiteUrl: 'https://example.com/trips',
    tools: [priceTrip],
  })
  open.push(server)
  return server
}

async function connect(generation: (typeof GENERATIONS)[number]): Promise<ScriptedClient> {
  const client = await connectClient(serve(), generation)
  open.unshift(client)
  return client
}

describe.each(GENERATIONS)('tool metadata, %s client', (generation) => {
  it('lists title, annotations, icons and the outputSchema; serverInfo has title, description and website', async () => {
    const client = await connect(generation)
    const [tool] = (await client.client.listTools()).tools
    expect(tool).toMatchObject({
      name: 'price_trip',
      title: 'Price a trip',
      annotations: { readOnlyHint: true, openWorldHint: false },
      icons: [{ src: ICON, mimeType: 'image/svg+xml', sizes: ['any'] }],
      outputSchema: { type: 'object', properties: { price: { type: 'number', minimum: 0 }, currency: { enum: ['EUR', 'USD'] } }, required: ['price', 'currency'] },
    })
    expect(client.client.getServerVersion()).toMatchObject({
      name: 'metadata-test',
      version: '2.0.0',
      title: 'Trip tools',
      description: 'Tools for planning trips.',
      websiteUrl: 'https://example.com/trips',
    })
  })

  it('sends a valid result as structuredContent that matches the schema (unknown keys dropped), with a text block', async () => {
    const client = await connect(generation)
    const result = await client.call('price_trip', { nights: 2 })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ price: 160, currency: 'EUR' })
    expect(quote.strict().safeParse(result.structuredContent).success).toBe(true)
    expect(JSON.parse(textOf(result))).toEqual({ price: 160, currency: 'EUR' })
  })

  it('refuses an invalid result: a tool error naming the field, and nothing of the value is sent', async () => {
    const client = await connect(generation)
    const result = await client.call('price_trip', { nights: 13 })
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toBeUndefined()
    expect(textOf(result)).toMatch(/^The tool failed: Tool "price_trip" returned a result its \.returns\(\) schema refuses, so it was not sent:\n.*price/)
    expect(textOf(result)).not.toContain('-1,')
  })
})

describe('metadata given wrong', () => {
  it('is refused when the tool or server is defined, naming what to write', () => {
    const b = createMcpTool('t')
    expect(() => b.annotations({ readOnly: true } as never)).toThrow(/\.annotations\(\).*known hints: readOnlyHint, destructiveHint, idempotentHint, openWorldHint/)
    expect(() => b.annotations({ readOnlyHint: 'yes' } as never)).toThrow(/readOnlyHint/)
    expect(() => b.icons([{ src: 'http://example.com/a.png' }])).toThrow(/an https:\/\/ URL or a data:image\/… URL/)
    expect(() => b.icons([{ src: 'https://example.com/a.png', sizes: ['big'] }])).toThrow(/WxH \(e\.g\. 48x48\) or any/)
    expect(() => b.icons([])).toThrow(/at least one icon/)
    expect(() => b.returns(z.string() as never)).toThrow(/\.returns\(\) takes a zod 4 object schema \(an MCP outputSchema is an object\)/)
    expect(() => b.returns(z.object({ at: z.date() }))).toThrow(/\.returns\(\) must be JSON-representable/)
    expect(() => createMcpServer({ name: 'x', version: '1', tools: [], websiteUrl: 'javascript:alert(1)' })).toThrow(OptionsError)
    expect(() => createMcpServer({ name: 'x', version: '1', tools: [], websiteUrl: 'javascript:alert(1)' })).toThrow(/websiteUrl.*an http\(s\) URL/)
  })
})
