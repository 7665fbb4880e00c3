/**
 * What a `tools/call` may carry: arguments nested past 64 levels or larger than
 * `maxArgumentBytes` are refused with -32602 before the tool (or anything recursive) reads them,
 * in a sentence that names the limit — never a stack overflow's own text; an HTTP body past
 * `maxBodyBytes` gets 413 before it is parsed. The server keeps serving.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../../src/index.ts'
import { createMcpServer } from '../../src/mcp.ts'
import { OptionsError } from '../../src/errors.ts'
import { connectClient, GENERATIONS, serveHttp, textOf } from './support/mcp-clients.ts'

const open: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  for (const c of open.splice(0)) await c.close()
})

const store = createMcpTool('store_note')
  .parameters(z.object({ note: z.unknown() }))
  .elicits({})
  .execute(function* (params) {
    return { stored: JSON.stringify(params.note)?.length ?? 0 }
  })

/** `{ note: [[[…]]] }`, `levels` deep, built without recursion. */
function nested(levels: number): Record<string, unknown> {
  let value: unknown = 'bottom'
  for (let i = 0; i < levels; i++) value = [value]
  return { note: value }
}

describe.each(GENERATIONS)('tools/call arguments, %s client', (generation) => {
  it('refuses arguments nested too deep or too large with -32602 naming the limit, and goes on serving', async () => {
    const server = createMcpServer({ name: 'bounds', version: '1', tools: [store], limits: { maxArgumentBytes: 64 << 10 } })
    open.push(server)
    const client = await connectClient(server, generation)
    open.unshift(client)
    const refusal = (args: Record<string, unknown>) =>
      client.client.callTool({ name: 'store_note', arguments: args }).then(
        (result) => `no error: ${textOf(result as never)}`,
        (error: Error) => error.message,
      )
    expect(await refusal(nested(70))).toMatch(/The arguments of "store_note" nest deeper than 64 levels; no tool takes that\. Nothing was run\./)
    // A hostile nesting: refused the same way, never as "Maximum call stack size exceeded".
    const deep = await refusal(nested(200_000))
    expect(deep).toMatch(/nest deeper than 64 levels/)
    expect(deep).not.toMatch(/stack/i)
    expect(await refusal({ note: 'x'.repeat(70 << 10) })).toMatch(
      /The arguments of "store_note" are \d+ bytes of JSON; this server takes at most 65536 \(limits\.maxArgumentBytes\)\. Nothing was run\./,
    )
    // Within the bounds, and after the refusals: served.
    expect((await client.call('store_note', nested(30))).structuredContent).toEqual({ stored: expect.any(Number) })
    expect(server.suspendedCalls).toBe(0)
  }, 30_000)
})

describe.each(GENERATIONS)('a question whose context is past maxContextBytes, %s client', (generation) => {
  const report = createMcpTool('big_report')
    .parameters(z.object({ rows: z.int() }))
    .elicits({ go: z.object({ ok: z.boolean() }) })
    .execute(function* (params, ctx) {
      const answer = yield* ctx.elicit('go', { message: 'Send it?', context: { rows: Array.from({ length: params.rows }, (_, i) => `row ${i}`) } })
      return { sent: answer.action === 'accept' }
    })

  it('ends the call with a reason naming the limit (never sent to the client, never stored), and goes on serving', async () => {
    const server = createMcpServer({ name: 'bounds', version: '1', tools: [report], limits: { maxContextBytes: 4096 } })
    open.push(server)
    const client = await connectClient(server, generation)
    open.unshift(client)
    const result = (await client.client.callTool({ name: 'big_report', arguments: { rows: 1000 } })) as { isError?: boolean }
    expect(result.isError).toBe(true)
    expect(textOf(result as never)).toMatch(/context of "go" is \d+ bytes \(limit 4096: limits\.maxContextBytes\)/)
    expect(server.suspendedCalls).toBe(0)
  }, 30_000)

  it('refuses a maxContextBytes below 1024 bytes, naming the option', () => {
    expect(() => createMcpServer({ name: 'bounds', version: '1', tools: [report], limits: { maxContextBytes: 10 } })).toThrow(OptionsError)
    expect(() => createMcpServer({ name: 'bounds', version: '1', tools: [report], limits: { maxContextBytes: 10 } })).toThrow(/limits\.maxContextBytes/)
  })
})

describe('an MCP request body past maxBodyBytes', () => {
  it('gets 413 with a JSON-RPC error before it is parsed', async () => {
    const server = createMcpServer({ name: 'bounds', version: '1', tools: [store] })
    const http = await serveHttp(server, { maxBodyBytes: 4096 })
    open.push(server, http)
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'store_note', arguments: { note: 'y'.repeat(8192) } } })
    const response = await fetch(http.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: big })
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'The request body is larger than 4096 bytes (createHandler({ maxBodyBytes })); nothing was read past it.' },
      id: null,
    })
  })

  it('names bad limits', () => {
    expect(() => createMcpServer({ name: 'bounds', version: '1', tools: [store], limits: { maxArgumentBytes: 10 } })).toThrow(OptionsError)
    const server = createMcpServer({ name: 'bounds', version: '1', tools: [store] })
    expect(() => server.createHandler({ maxBodyBytes: 1 })).toThrow(/maxBodyBytes.*at least 1024 bytes/)
  })
})
