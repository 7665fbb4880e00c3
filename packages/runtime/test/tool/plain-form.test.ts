/**
 * A plain MCP form: what a person sees in a client without this tool's UI. `.plainForm()` gives a
 * free string field titled choices and the message a readable summary; the context never shows
 * as JSON to a person; a free id with no choices is a warning with the fix.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Client as Client117 } from 'mcp-sdk-1-17/client/index.js'
import { InMemoryTransport as Memory117 } from 'mcp-sdk-1-17/inMemory.js'
import { ElicitRequestSchema as Elicit117 } from 'mcp-sdk-1-17/types.js'
import { createMcpTool } from '../../src/index.ts'
import { createMcpServer } from '../../src/mcp.ts'
import { accept, connectClient, GENERATIONS } from '../mcp/support/mcp-clients.ts'

const slot = z.object({ time: z.string(), free: z.boolean() })
const reserve = createMcpTool('reserve')
  .elicits({ pickTime: { response: z.object({ time: z.string() }), context: z.object({ slots: z.array(slot), restaurant: z.string() }) } })
  .plainForm({
    pickTime: {
      choices: { time: (context) => context.slots.filter((s) => s.free).map((s) => ({ value: s.time, title: `${s.time} (free)` })) },
      summary: (context) => `${context.restaurant} has ${context.slots.filter((s) => !s.free).length} tables taken tonight.`,
    },
  })
  .execute(function* (_p, ctx) {
    const slots = [
      { time: '18:00', free: false },
      { time: '19:30', free: true },
      { time: '21:00', free: true },
    ]
    const answer = yield* ctx.elicit('pickTime', { message: 'When would you like to eat?', slots, restaurant: 'Luigi’s' })
    return answer.action === 'accept' ? answer.content.time : 'none'
  })

describe('.plainForm()', () => {
  it('refuses what it cannot use, naming the key or field and what it takes', () => {
    const base = createMcpTool('t').elicits({ pick: { response: z.object({ id: z.string(), n: z.int() }), context: z.object({ items: z.array(z.string()) }) } })
    const problem = (forms: unknown) => {
      try {
        ;(base.plainForm as (f: unknown) => unknown)(forms)
      } catch (error) {
        return (error as Error).message
      }
      return 'no error'
    }
    expect(problem({ nope: {} })).toMatch(/names "nope", which .elicits\(\) does not declare \(declared: pick\)/)
    expect(problem({ pick: { choices: { other: () => [] } } })).toMatch(/names "other", which the response of "pick" does not have \(fields: id, n\)/)
    expect(problem({ pick: { choices: { n: () => [] } } })).toMatch(/only a free string field takes choices \("n" is a integer\)/)
    expect(problem({ pick: { choices: { id: [] } } })).toMatch(/takes a function of the context returning \[\{ value, title \}\]/)
    expect(problem({ pick: { summary: 'text' } })).toMatch(/summary \} \}\) takes a function of the context/)
    expect(problem({ pick: { title: 'x' } })).toMatch(/has no "title"; it takes choices and summary/)
    // Types guide too: only string fields, and the context arrives typed.
    // @ts-expect-error — `n` is a number field: no choices
    void (() => base.plainForm({ pick: { choices: { n: () => [] } } }))
    base.plainForm({ pick: { choices: { id: (context) => context.items.map((i) => ({ value: i, title: i.toUpperCase() })) } } })
  })

  it('warns about a free string a person could not answer (an id, or a key whose context holds a list), and not once it has choices', () => {
    const asked = createMcpTool('t').elicits({
      pickFlight: { response: z.object({ flightId: z.string() }), context: z.object({ route: z.string() }) },
      pickTime: { response: z.object({ time: z.string() }), context: z.object({ slots: z.array(z.string()) }) },
      details: z.object({ name: z.string(), color: z.string().regex(/^#[0-9a-f]{6}$/) }),
    })
    const warned = asked.execute(function* () {}).warnings.filter((w) => w.rule === 'plain-form-unanswerable')
    expect(warned.map((w) => `${w.key}.${w.property}`)).toEqual(['pickFlight.flightId', 'pickTime.time'])
    expect(warned[1]!.message).toContain('the choices are in context.slots. Offer them: .plainForm({ pickTime: { choices: { time: (context) => context.slots.map(')
    const answered = asked.plainForm({ pickFlight: { choices: { flightId: () => [] } }, pickTime: { choices: { time: (c) => c.slots.map((s) => ({ value: s, title: s })) } } })
    expect(answered.execute(function* () {}).warnings.filter((w) => w.rule === 'plain-form-unanswerable')).toEqual([])
  })
})

describe.each(GENERATIONS)('a plain form over MCP, %s client', (generation) => {
  it('asks with titled choices and a readable summary; the context stays data in the schema, never JSON in the message', async () => {
    const server = createMcpServer({ name: 'plain', version: '1', tools: [reserve] })
    const client = await connectClient(server, generation)
    try {
      client.elicitAnswers.push((params) => {
        const time = params.requestedSchema.properties.time as { oneOf: Array<{ const: string; title: string }> }
        return accept({ time: time.oneOf[1]!.const })(params)
      })
      const result = await client.call('reserve')
      expect(result.structuredContent ?? result.content).toEqual([{ type: 'text', text: '21:00' }])
      const asked = client.received.find((r) => r.kind === 'elicit')!.params as { message: string; requestedSchema: Record<string, unknown> }
      expect(asked.message).toBe('When would you like to eat?\n\nLuigi’s has 1 tables taken tonight.')
      expect(asked.requestedSchema).toMatchObject({
        properties: {
          time: {
            type: 'string',
            oneOf: [
              { const: '19:30', title: '19:30 (free)' },
              { const: '21:00', title: '21:00 (free)' },
            ],
          },
        },
        'x-model-context': { restaurant: 'Luigi’s' },
      })
    } finally {
      await client.close()
      await server.close()
    }
  })
})

describe('a plain form for a 2025-06-18 client (SDK 1.17)', () => {
  it('is an enum with enumNames, the titled select of that revision', async () => {
    const server = createMcpServer({ name: 'plain', version: '1', tools: [reserve] })
    const [clientSide, serverSide] = Memory117.createLinkedPair()
    server.listen({ transport: serverSide as never })
    const client = new Client117({ name: 'sdk117', version: '1' }, { capabilities: { elicitation: {} } })
    const asked: Array<Record<string, unknown>> = []
    client.setRequestHandler(Elicit117, async (request) => {
      asked.push(request.params)
      return { action: 'accept', content: { time: '19:30' } }
    })
    await client.connect(clientSide as never)
    try {
      const result = (await client.callTool({ name: 'reserve', arguments: {} })) as { content: Array<{ text: string }> }
      expect(result.content[0]!.text).toBe('19:30')
      expect(asked[0]!.requestedSchema).toMatchObject({ properties: { time: { type: 'string', enum: ['19:30', '21:00'], enumNames: ['19:30 (free)', '21:00 (free)'] } } })
      expect(asked[0]!.message).not.toContain('{')
    } finally {
      await client.close()
      await server.close()
    }
  })
})

describe('a plain form that throws', () => {
  it('fails the call with PLAIN_FORM_INVALID, naming the tool, key and part', async () => {
    const broken = createMcpTool('broken')
      .elicits({ pick: { response: z.object({ id: z.string() }), context: z.object({ items: z.array(z.string()) }) } })
      .plainForm({
        pick: {
          choices: {
            id: () => {
              throw new Error('no items')
            },
          },
        },
      })
      .execute(function* (_p, ctx) {
        yield* ctx.elicit('pick', { message: 'Pick', items: [] })
      })
    const server = createMcpServer({ name: 'plain', version: '1', tools: [broken] })
    const client = await connectClient(server, '2025-11-25')
    try {
      const result = await client.call('broken')
      expect(result.isError).toBe(true)
      expect(JSON.stringify(result.content)).toContain('broken: .plainForm({ pick }): choices.id threw: no items')
    } finally {
      await client.close()
      await server.close()
    }
  })
})
