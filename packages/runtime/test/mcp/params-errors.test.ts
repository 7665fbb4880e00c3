/**
 * Bad params of any method are -32602 with the problems in one line — not the SDK's zod dump, and
 * not -32603 (an internal error) for the methods whose params the SDK checks before our handler —
 * over 2026-07-28 HTTP requests and a 2025-11-25 connection alike; the server keeps serving.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpServer } from '../../src/mcp.ts'
import { conformancePrompts } from '../../../../conformance/prompts.ts'
import { conformanceResources } from '../../../../conformance/resources.ts'
import { conformanceTools } from '../../../../conformance/tools.ts'

const open: Array<{ close(): Promise<unknown> }> = []
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close()
})

function serve() {
  const server = createMcpServer({ name: 'params', version: '1.0.0', tools: conformanceTools, prompts: conformancePrompts, resources: conformanceResources })
  const handler = server.createHandler()
  open.push(server, handler)
  return { server, handler }
}

const MODERN = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, sampling: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'params-test', version: '1' },
}

/** One 2026-07-28 request over the handler's fetch face: its JSON-RPC error or result. */
async function modern(handler: ReturnType<typeof serve>['handler'], method: string, params: Record<string, unknown>) {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {}
  const response = await handler.fetch(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...name },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: MODERN } }),
    }),
  )
  const text = await response.text()
  const body = JSON.parse(text.includes('data: ') ? text.slice(text.lastIndexOf('data: ') + 6) : text) as { error?: { code: number; message: string }; result?: unknown }
  return body
}

describe('bad params', () => {
  it.each([
    ['tools/call', { name: 5 }, 'Invalid params for tools/call: params.name: Invalid input: expected string, received number'],
    ['tools/call', { name: 'test_simple_text', arguments: 'x' }, 'Invalid params for tools/call: params.arguments: Invalid input: expected record, received string'],
    ['tools/list', { cursor: 5 }, 'Invalid params for tools/list: params.cursor: Invalid input: expected string, received number'],
    ['resources/read', {}, 'Invalid params for resources/read: params.uri: Invalid input: expected string, received undefined'],
    ['resources/templates/list', { cursor: {} }, 'Invalid params for resources/templates/list: params.cursor: Invalid input: expected string, received object'],
    ['prompts/get', {}, 'Invalid params for prompts/get: params.name: Invalid input: expected string, received undefined'],
  ])('%s %j is -32602 with the problem in one line (2026-07-28)', async (method, params, message) => {
    const { handler } = serve()
    expect((await modern(handler, method, params)).error).toEqual({ code: -32602, message })
    // …and the server goes on serving.
    expect((await modern(handler, 'tools/list', {})).result).toMatchObject({ tools: expect.any(Array) })
  })

  it.each([
    ['tools/list', 'tool'],
    ['prompts/list', 'prompt'],
    ['resources/list', 'resource'],
    ['resources/templates/list', 'resource template'],
  ])('%s refuses a cursor this server never issued, as every list does (-32602)', async (method, what) => {
    const { handler } = serve()
    expect((await modern(handler, method, { cursor: 'page-2' })).error).toEqual({
      code: -32602,
      message: `Unknown cursor "page-2": this server lists every ${what} on one page.`,
    })
    expect((await modern(handler, method, {})).result).toBeDefined()
  })

  it('is -32602 in one line on a 2025-11-25 connection too', async () => {
    const { server } = serve()
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    const handle = server.listen({ transport: serverSide })
    const client = new Client({ name: 'legacy', version: '1' }, { capabilities: {} })
    await client.connect(clientSide)
    open.push({ close: async () => (await client.close(), await handle.close()) })
    const refused = client.request({ method: 'resources/read', params: { uri: 5 } } as never, z.object({}).loose())
    await expect(refused).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^(MCP error -32602: )?Invalid params for resources\/read: params\.uri: Invalid input: expected string, received number$/),
    })
  })
})
