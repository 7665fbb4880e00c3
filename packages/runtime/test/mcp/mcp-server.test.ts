/**
 * createMcpServer against the official SDK clients of both protocol generations, in memory
 * (through the stdio entry with an in-memory transport).
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createMcpTool, extractModelContext, MODEL_CONTEXT_EXTENSION } from '../../src/index.ts'
import { type BridgeMcpServer, createMcpServer } from '../../src/mcp.ts'
import { JsonRpcStdioTransport } from '../../src/mcp/stdio-transport.ts'
import { PassThrough } from 'node:stream'
import { bookFlight } from '../fixtures/book-flight.ts'
import { add, askAge, classify, countingTool, maybeStructured, waitingTool } from '../fixtures/mcp-tools.ts'
import { accept, connectClient, FULL_CAPABILITIES, GENERATIONS, textOf, type ScriptedClient } from './support/mcp-clients.ts'
import { until } from '../support/until.ts'
import { captureLogger } from '../support/capture-logger.ts'

const open: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  for (const c of open.splice(0)) await c.close()
})

function serve(tools: Parameters<typeof createMcpServer>[0]['tools'], extra: Partial<Parameters<typeof createMcpServer>[0]> = {}): BridgeMcpServer {
  const server = createMcpServer({ name: 'test-server', version: '1.0.0', tools, ...extra })
  open.push(server)
  return server
}

async function connect(...args: Parameters<typeof connectClient>): Promise<ScriptedClient> {
  const client = await connectClient(...args)
  open.unshift(client)
  return client
}

const seatAndTip = (client: ScriptedClient) => {
  client.elicitAnswers.push(accept({ flightId: 'CA-287' }), accept({ row: 12, seat: 'C' }))
  client.sampleAnswers.push(() => ({ role: 'assistant', content: { type: 'text', text: 'Arrive early.' }, model: 'scripted' }))
}

describe.each(GENERATIONS)('MCP server, %s client', (generation) => {
  it('negotiates the generation it is meant to test', async () => {
    const client = await connect(serve([add]), generation)
    expect(client.client.getNegotiatedProtocolVersion()).toBe(generation)
  })

  it('lists tools with description and parameters JSON Schema', async () => {
    const client = await connect(serve([add, bookFlight]), generation)
    const { tools } = await client.client.listTools()
    const listed = tools.find((t) => t.name === 'add')!
    expect(listed.description).toBe('Add two numbers')
    expect(listed.inputSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] })
    expect(tools.map((t) => t.name).sort()).toEqual(['add', 'book_flight'])
  })

  it('runs book_flight end to end; a client that declares it reads x-model-context from the schema and from the message', async () => {
    const client = await connect(serve([bookFlight]), generation, { capabilities: { ...FULL_CAPABILITIES, extensions: { [MODEL_CONTEXT_EXTENSION]: {} } } })
    seatAndTip(client)
    const result = await client.call('book_flight', { from: 'NYC', destination: 'LAX' })

    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toMatchObject({ booked: true, ticketNumber: 'TK-CA-287-12C', seat: '12C', price: 349, tip: 'Arrive early.' })
    const elicits = client.received.flatMap((r) => (r.kind === 'elicit' ? [r.params] : []))
    expect(elicits).toHaveLength(2)
    const first = elicits[0]!
    expect(first.mode ?? 'form').toBe('form')
    expect(first.requestedSchema.properties).toEqual({ flightId: { type: 'string' } })
    const fromSchema = (first.requestedSchema as Record<string, unknown>)['x-model-context'] as { flights: Array<{ id: string }> }
    expect(fromSchema.flights.map((f) => f.id)).toEqual(['SH-142', 'CA-287'])
    // Belt and suspenders: a client that strips unknown schema keywords still finds it in the message.
    const { ['x-model-context']: _stripped, ...strippedSchema } = first.requestedSchema as Record<string, unknown>
    const fromMessage = extractModelContext({ message: first.message, schema: strippedSchema })
    expect(fromMessage).toEqual({ message: 'Select your flight', context: fromSchema, source: 'message' })
    expect(extractModelContext({ message: elicits[1]!.message, schema: elicits[1]!.requestedSchema }).context).toEqual({ taken: ['1A', '2C'] })
    const sample = client.received.find((r) => r.kind === 'sample')
    expect(sample).toMatchObject({ params: { messages: [{ role: 'user', content: [{ type: 'text', text: 'One travel tip for LAX airport' }] }] } })
  })

  it('reports a decline and a cancel to the tool as such', async () => {
    const client = await connect(serve([bookFlight]), generation)
    client.elicitAnswers.push(() => ({ action: 'decline' }))
    expect((await client.call('book_flight', { from: 'A', destination: 'B' })).structuredContent).toEqual({ booked: false, reason: 'decline' })
    client.elicitAnswers.push(accept({ flightId: 'SH-142' }), () => ({ action: 'cancel' }))
    expect((await client.call('book_flight', { from: 'A', destination: 'B' })).structuredContent).toEqual({ booked: false, reason: 'cancel' })
  })

  it('never gives the tool an answer that does not fit: the question is asked again, saying why', async () => {
    const client = await connect(serve([askAge]), generation)
    client.elicitAnswers.push(accept({ years: -4 }), accept({ years: 'old' }), accept({ years: 42 }))
    const result = await client.call('ask_age')
    expect(result.isError).toBeFalsy()
    expect(textOf(result)).toBe('You are 42.')
    const messages = client.received.flatMap((r) => (r.kind === 'elicit' ? [r.params.message] : []))
    expect(messages[0]).toBe('How old are you?')
    // Said for the person who answers (zod's default "Invalid input: expected number…" rewritten).
    expect(messages[1]).toBe('That answer did not fit (years: Use a number of at least 0.). How old are you?')
    expect(messages[2]).toMatch(/^That answer did not fit \(years: .*Enter a number\..*\)\. How old are you\?$/)
  })

  it('samples raw and structured through the client, sending __schema__ with toolChoice required', async () => {
    const client = await connect(serve([classify]), generation)
    client.sampleAnswers.push(
      () => ({ role: 'assistant', content: { type: 'text', text: 'Sunny words.' }, model: 'm' }),
      (params) => ({
        role: 'assistant',
        model: 'm',
        stopReason: 'toolUse',
        content: [{ type: 'tool_use', id: 'tu1', name: params.tools![0]!.name, input: { label: 'positive' } }],
      }),
    )
    const result = await client.call('classify', { text: 'what a day' })
    expect(result.structuredContent).toEqual({ said: 'Sunny words.', label: 'positive', exchange: 3 })
    const samples = client.received.flatMap((r) => (r.kind === 'sample' ? [r.params] : []))
    expect(samples[0]!.tools).toBeUndefined()
    expect(samples[1]!.tools).toEqual([expect.objectContaining({ name: '__schema__', inputSchema: expect.objectContaining({ type: 'object' }) })])
    expect(samples[1]!.toolChoice).toEqual({ mode: 'required' })
  })

  it('refuses a structured sample to a client without sampling.tools, into the tool', async () => {
    const client = await connect(serve([maybeStructured]), generation, { capabilities: { elicitation: { form: {} }, sampling: {} } })
    const result = await client.call('maybe_structured')
    expect(textOf(result)).toBe(
      'fallback: Tool "maybe_structured" needs the client capability "sampling.tools" (ctx.sample with a schema sends the __schema__ tool; call ctx.sample without a schema for such clients), which this client did not declare.',
    )
    expect(client.received.filter((r) => r.kind === 'sample')).toEqual([])
  })

  it('does not offer tools a client cannot serve, and refuses to call them naming the capability', async () => {
    const logged = captureLogger()
    const client = await connect(serve([add, askAge, classify], { logger: logged.logger }), generation, { capabilities: {} })
    expect((await client.client.listTools()).tools.map((t) => t.name)).toEqual(['add'])
    // The person who runs the server is told too, in its log, once for the session.
    const told = logged.entries.filter((e) => e.message.startsWith('tools/list:'))
    expect(told).toHaveLength(1)
    expect(told[0]).toMatchObject({ level: 'warn', fields: { hidden: ['ask_age', 'classify'] }, message: expect.stringContaining('2 of 3 tools not listed for') })
    expect(told[0]!.message).toContain("A client that cannot answer questions (no `elicitation` capability, as MCP Inspector's CLI) cannot call tools that ask")
    // A person looking at the short list (MCP Inspector) is told why, as a log message — in the
    // 2025-11-25 generation; a 2026-07-28 client gets logs only for requests that ask for them.
    if (generation === '2025-11-25') {
      await vi.waitFor(() => expect(client.received.filter((r) => r.kind === 'log')).toHaveLength(1))
      expect(client.received.find((r) => r.kind === 'log')).toMatchObject({
        level: 'warning',
        data: 'Not listed for this client, which does not declare what these tools need: ask_age (needs elicitation: it asks the user through ctx.elicit, in form mode); classify (needs sampling: it asks the model through ctx.sample).',
      })
    } else expect(client.received.filter((r) => r.kind === 'log')).toEqual([])
    await expect(client.call('ask_age')).rejects.toThrow(/Tool "ask_age" needs the client capability "elicitation"/)
    await expect(client.call('classify', { text: 'x' })).rejects.toThrow(/needs the client capability "sampling"/)
    expect((await client.call('add', { a: 1, b: 2 })).structuredContent).toEqual({ sum: 3 })
    await client.client.listTools()
    expect(logged.entries.filter((e) => e.message.startsWith('tools/list:'))).toHaveLength(1)
  })

  it('names every capability a tool needs that the client lacks, in the refusal and in the log, not only the first', async () => {
    const asksAndSamples = createMcpTool('plan_trip')
      .requires({ sampling: true })
      .elicits({ ok: z.object({ ok: z.boolean() }) })
      .execute(function* (_p, ctx) {
        yield* ctx.elicit('ok', { message: 'OK?' })
        return (yield* ctx.sample({ prompt: 'Plan' })).text
      })
    const logged = captureLogger()
    const client = await connect(serve([add, asksAndSamples], { logger: logged.logger }), generation, { capabilities: {} })
    expect((await client.client.listTools()).tools.map((t) => t.name)).toEqual(['add'])
    const refused = client.call('plan_trip')
    await expect(refused).rejects.toThrow(
      'Tool "plan_trip" needs the client capabilities "elicitation" (it asks the user through ctx.elicit, in form mode) and "sampling" (it asks the model through ctx.sample); declare them when connecting, or use another tool.',
    )
    expect(logged.entries.find((e) => e.message.startsWith('tools/list:'))?.message).toContain(
      'plan_trip (needs elicitation: it asks the user through ctx.elicit, in form mode; and sampling: it asks the model through ctx.sample)',
    )
  })

  it('tells its log of hidden tools once per client and list, however many sessions or stateless requests list them (a listing loop writes no line each)', async () => {
    const logged = captureLogger()
    const server = serve([add, askAge], { logger: logged.logger })
    for (let i = 0; i < 5; i++) {
      const client = await connect(server, generation, { capabilities: {} })
      expect((await client.client.listTools()).tools.map((t) => t.name)).toEqual(['add'])
      await client.close()
    }
    expect(logged.entries.filter((e) => e.message.startsWith('tools/list:'))).toHaveLength(1)
  })

  it('treats a client with URL-mode elicitation only as one without forms; names no hidden tool when a name is unknown', async () => {
    const client = await connect(serve([add, askAge]), generation, { capabilities: { elicitation: { url: {} } } })
    expect((await client.client.listTools()).tools.map((t) => t.name)).toEqual(['add'])
    await expect(client.call('ask_age')).rejects.toThrow(/needs the client capability "elicitation" \(it asks the user through ctx\.elicit, in form mode\)/)
    await expect(client.call('nope')).rejects.toThrow(/Unknown tool "nope"\. This server has: "add"\.$/)
  })

  it('answers a tools/list cursor it never issued with invalid params (-32602)', async () => {
    const client = await connect(serve([add]), generation)
    await expect(client.client.listTools({ cursor: 'forged' })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/Unknown cursor "forged"/) })
  })

  it('delivers logs and progress in the order the tool emitted them', async () => {
    const client = await connect(serve([countingTool().tool]), generation)
    const result = await client.call('count', { to: 3 })
    expect(textOf(result)).toBe('counted to 3')
    const seen = client.received.map((r) => (r.kind === 'log' ? `log:${r.data as string}` : r.kind === 'progress' ? `progress:${r.progress}/${r.total}:${r.message}` : r.kind))
    expect(seen.filter((s) => !s.startsWith('progress:') || !s.includes('Fulfilling'))).toEqual([
      'log:step 1',
      'progress:1/3:counted 1',
      'log:step 2',
      'progress:2/3:counted 2',
      'log:step 3',
      'progress:3/3:counted 3',
    ])
  })

  it('turns a tool failure or bad parameters into an isError result, and keeps serving', async () => {
    const client = await connect(serve([add, askAge]), generation)
    const bad = await client.call('add', { a: 'one', b: 2 })
    expect(bad.isError).toBe(true)
    expect(textOf(bad)).toMatch(/Invalid parameters for tool "add"; the tool did not run:\n {2}- a: /)
    await expect(client.call('nope')).rejects.toThrow(/Unknown tool "nope". This server has: "add", "ask_age"/)
    expect((await client.call('add', { a: 2, b: 2 })).structuredContent).toEqual({ sum: 4 })
  })

  it('aborts the tool when the client cancels the call; its finally runs', async () => {
    const counting = countingTool()
    const server = serve([counting.tool])
    const client = await connect(server, generation)
    const controller = new AbortController()
    const call = client.call('count', { to: 1000, delayMs: 5 }, { signal: controller.signal })
    // Cancel once the tool is visibly running.
    await client.receivedWhere((r) => r.kind === 'progress' && r.progress >= 3)
    controller.abort('user pressed stop')
    await expect(call).rejects.toThrow()
    expect(await counting.cleanedUp).toBe('halted')
    await until(() => server.suspendedCalls === 0)
  })

  it('two clients at once each get their own call and answers', async () => {
    const server = serve([bookFlight])
    const [a, b] = await Promise.all([connect(server, generation), connect(server, generation)])
    a.elicitAnswers.push(accept({ flightId: 'SH-142' }), accept({ row: 1, seat: 'B' }))
    b.elicitAnswers.push(accept({ flightId: 'CA-287' }), accept({ row: 30, seat: 'D' }))
    a.sampleAnswers.push(() => ({ role: 'assistant', content: { type: 'text', text: 'tip A' }, model: 'm' }))
    b.sampleAnswers.push(() => ({ role: 'assistant', content: { type: 'text', text: 'tip B' }, model: 'm' }))
    const [ra, rb] = await Promise.all([a.call('book_flight', { from: 'OSL', destination: 'BER' }), b.call('book_flight', { from: 'NYC', destination: 'LAX' })])
    expect(ra.structuredContent).toMatchObject({ ticketNumber: 'TK-SH-142-1B', tip: 'tip A' })
    expect(rb.structuredContent).toMatchObject({ ticketNumber: 'TK-CA-287-30D', tip: 'tip B' })
    expect(server.suspendedCalls).toBe(0)
  })

  it('a call whose answer never comes expires after limits.idleTimeoutMs; the tool is aborted and cleaned up', async () => {
    const waiting = waitingTool()
    const server = serve([waiting.tool], { limits: { idleTimeoutMs: 1000 } })
    const client = await connect(server, generation)
    // The person never answers: the client's handler does not resolve until the test ends.
    let release: () => void = () => {}
    client.elicitAnswers.push(() => new Promise((resolve) => (release = () => resolve({ action: 'cancel' }))))
    const call = client.call('wait_for_user').catch((e: Error) => e)
    await waiting.cleanedUp
    expect(server.suspendedCalls).toBe(0)
    release()
    const outcome = await call
    // The late answer finds the call gone, and says why.
    expect(outcome instanceof Error ? outcome.message : textOf(outcome)).toMatch(
      /This requestState cannot be used: that tool call is over, it was aborted: no answer came within 1 s \(limits\.idleTimeoutMs\)/,
    )
  })
})

describe('the stdio wire', () => {
  it('answers a line that is not JSON with -32700 and one that is not JSON-RPC with -32600, and keeps serving; its log stays quiet', async () => {
    const reported: Error[] = []
    const server = createMcpServer({ name: 'stdio-test', version: '1.0.0', tools: [add], onError: (error) => reported.push(error) })
    const stdin = new PassThrough()
    const stdout = new PassThrough()
    const lines: Array<Record<string, unknown>> = []
    let buffered = ''
    stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString()
      for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
        lines.push(JSON.parse(buffered.slice(0, end)) as Record<string, unknown>)
        buffered = buffered.slice(end + 1)
      }
    })
    const handle = server.listen({ transport: new JsonRpcStdioTransport(stdin, stdout) })
    const until = async (n: number) => {
      for (let i = 0; i < 200 && lines.length < n; i++) await new Promise((r) => setTimeout(r, 10))
    }
    stdin.write('this is not json\n')
    stdin.write('{"hello": "world"}\n')
    await until(2)
    expect(lines.map((l) => [l.id, (l.error as { code: number }).code])).toEqual([
      [null, -32700],
      [null, -32600],
    ])
    expect((lines[0]!.error as { message: string }).message).toMatch(/^Parse error/)
    const initialize = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize })}\n`)
    await until(3)
    expect(lines[2]).toMatchObject({ id: 1, result: { serverInfo: { name: 'stdio-test' } } })
    // The client was told; nothing of its junk reaches the server's error log (a dump a line, before).
    expect(reported).toEqual([])
    await handle.close()
  }, 20_000)
})

describe('a client that cannot answer a question', () => {
  it('is reported in one readable sentence, never as the raw validation dump it sent', async () => {
    const server = createMcpServer({ name: 'refusal-test', version: '1.0.0', tools: [bookFlight] })
    const client = await connectClient(server, '2025-11-25')
    open.push(client)
    const dump = [
      { code: 'invalid_type', expected: 'string', received: 'undefined', path: ['params', 'requestedSchema', 'properties', 'flightId', 'type'], message: 'Required' },
      { code: 'unrecognized_keys', keys: ['x-model-context'], path: ['params', 'requestedSchema'], message: 'Unrecognized key' },
    ]
    client.elicitAnswers.push(() => {
      throw new Error(JSON.stringify(dump, null, 2))
    })
    const result = await client.call('book_flight', { from: 'OSL', destination: 'BER' })
    expect(result.isError).toBe(true)
    const text = textOf(result)
    expect(text).toMatch(
      /The client could not answer the question \(elicitation\/create\): .*params\.requestedSchema\.properties\.flightId\.type: Required; params\.requestedSchema: Unrecognized key/,
    )
    expect(text).not.toContain('"code"')
    expect(text.split('\n')).toHaveLength(1)
    // Nothing will come back for the call: it ended, and holds no place.
    for (let i = 0; i < 100 && server.suspendedCalls > 0; i++) await new Promise((r) => setTimeout(r, 10))
    expect(server.suspendedCalls).toBe(0)
  })
})

describe('logging/setLevel (2025-11-25)', () => {
  it('filters the session’s tool logs from the level on; a level it does not know is bad params (-32602), naming the levels', async () => {
    const loud = createMcpTool('loud')
      .elicits({})
      .execute(function* (_p, ctx) {
        for (const level of ['debug', 'info', 'warning', 'error'] as const) yield* ctx.log(level, `a ${level} line`)
        return 'done'
      })
    const client = await connectClient(serve([loud]), '2025-11-25')
    await expect(client.client.setLoggingLevel('loud' as never)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/level must be one of debug, info, notice, warning, error, critical, alert, emergency \(got "loud"\)/),
    })
    await client.client.setLoggingLevel('warning')
    await client.call('loud')
    expect(client.received.filter((r) => r.kind === 'log').map((r) => (r.kind === 'log' ? r.level : ''))).toEqual(['warning', 'error'])
    await client.client.setLoggingLevel('debug')
    await client.call('loud')
    expect(client.received.filter((r) => r.kind === 'log')).toHaveLength(6)
  })
})
