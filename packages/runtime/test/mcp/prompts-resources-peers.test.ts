/**
 * Prompts, resources, completions and rich tool results from each generation of the official
 * client: SDK 1.17 (2025-06-18) and 1.32 (2025-11-25) over Streamable HTTP and over a stdio-like
 * in-memory pipe, and v2 over HTTP — the conformance app's own definitions, served once each way.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client'
import { Client as Client117 } from 'mcp-sdk-1-17/client/index.js'
import { StreamableHTTPClientTransport as Http117 } from 'mcp-sdk-1-17/client/streamableHttp.js'
import { InMemoryTransport as Memory117 } from 'mcp-sdk-1-17/inMemory.js'
import { Client as Client132 } from 'mcp-sdk-1-32/client/index.js'
import { StreamableHTTPClientTransport as Http132 } from 'mcp-sdk-1-32/client/streamableHttp.js'
import { InMemoryTransport as Memory132 } from 'mcp-sdk-1-32/inMemory.js'
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpServer } from '../../src/mcp.ts'
import { conformancePrompts } from '../../../../conformance/prompts.ts'
import { conformanceResources } from '../../../../conformance/resources.ts'
import { conformanceTools } from '../../../../conformance/tools.ts'
import { serveHttp } from './support/mcp-clients.ts'

/** The part of the three clients' APIs this test uses (their classes differ in detail). */
interface Peer {
  listPrompts(): Promise<{ prompts: Array<{ name: string }> }>
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{ messages: Array<{ content: { type: string } }> }>
  listResources(): Promise<{ resources: Array<{ uri: string }> }>
  listResourceTemplates(): Promise<{ resourceTemplates: Array<{ uriTemplate: string }> }>
  readResource(params: { uri: string }): Promise<{ contents: Array<Record<string, unknown>> }>
  complete(params: { ref: { type: 'ref/prompt'; name: string }; argument: { name: string; value: string } }): Promise<{ completion: { values: string[] } }>
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>
  connect(transport: unknown): Promise<void>
  close(): Promise<void>
}

const open: Array<{ close(): Promise<unknown> }> = []
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close()
})

const serve = () => {
  const server = createMcpServer({ name: 'peers', version: '1.0.0', tools: conformanceTools, prompts: conformancePrompts, resources: conformanceResources })
  open.push(server)
  return server
}
const make = (Client: unknown): Peer => new (Client as new (info: object, options: object) => Peer)({ name: 'peer', version: '1' }, { capabilities: {} })

const peers = [
  ['SDK 1.17 over HTTP', Client117, 'http', Http117],
  ['SDK 1.32 over HTTP', Client132, 'http', Http132],
  ['SDK v2 over HTTP', ClientV2, 'http', HttpV2],
  ['SDK 1.17 over a stdio-like pipe', Client117, 'pipe', Memory117],
  ['SDK 1.32 over a stdio-like pipe', Client132, 'pipe', Memory132],
] as const

describe.each(peers)('%s', (_name, Client, how, Transport) => {
  it('lists and gets prompts, lists and reads resources and templates, completes, and gets rich tool results', async () => {
    const server = serve()
    const client = make(Client)
    if (how === 'http') {
      const http = await serveHttp(server)
      open.push(http)
      await client.connect(new (Transport as new (url: URL) => unknown)(http.url))
    } else {
      const [clientSide, serverSide] = (Transport as typeof Memory132).createLinkedPair()
      const handle = server.listen({ transport: serverSide as never })
      open.push(handle)
      await client.connect(clientSide)
    }
    open.push(client)
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('test_prompt_with_image')
    expect((await client.getPrompt({ name: 'test_prompt_with_image' })).messages.map((m) => m.content.type)).toEqual(['image', 'text'])
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['test://static-text', 'test://static-binary', 'test://watched-resource'])
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['test://template/{id}/data'])
    expect((await client.readResource({ uri: 'test://static-binary' })).contents[0]).toMatchObject({ uri: 'test://static-binary', mimeType: 'image/png', blob: expect.any(String) })
    expect((await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'par' } })).completion.values).toEqual([
      'paris',
      'park',
      'party',
    ])
    expect(await client.callTool({ name: 'test_multiple_content_types', arguments: {} })).toMatchObject({
      content: [{ type: 'text' }, { type: 'image', mimeType: 'image/png' }, { type: 'resource' }],
    })
  }, 30_000)
})
