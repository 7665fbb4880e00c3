/**
 * Resources: `createMcpResource` checks its URI and what `.read()` returns; `createMcpServer({
 * resources })` lists, reads (static, template, binary) and notifies subscribers — beside the MCP
 * Apps views, on one set of handlers — to the SDK v2 client.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpResource } from '../../src/index.ts'
import { ResourceDefinitionError } from '../../src/errors.ts'
import { createMcpServer } from '../../src/mcp.ts'
import { bookFlight } from '../fixtures/book-flight.ts'
import { serveHttp } from '../mcp/support/mcp-clients.ts'
import { listen } from '../mcp/support/tasks-wire.ts'

const config = createMcpResource('config://app')
  .name('App configuration')
  .mimeType('application/json')
  .read(() => JSON.stringify({ theme: 'dark' }))
const order = createMcpResource('orders://{id}/summary')
  .name('Order summary')
  .description('One order, by id')
  .mimeType('text/plain')
  .complete({ id: (typed) => ['7', '71', '8'].filter((id) => id.startsWith(typed)) })
  .read(async ({ id }) => ({ text: `Order ${id}: 2 items` }))
const logo = createMcpResource('file:///logo.bin').read(() => new Uint8Array([1, 2, 3]))
const broken = createMcpResource('broken://x').read(() => 42 as never)

const open: Array<{ close(): Promise<unknown> }> = []
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close()
})

async function connect() {
  const server = createMcpServer({ name: 'resources-test', version: '1.0.0', tools: [bookFlight], resources: [config, order, logo, broken] })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const handle = server.listen({ transport: serverSide })
  const client = new Client({ name: 'v2', version: '1' })
  await client.connect(clientSide)
  open.push(server, { close: async () => (await client.close(), await handle.close()) })
  return { server, client }
}

describe('createMcpResource', () => {
  it('refuses a URI without a scheme, or braces that are not a {variable}', () => {
    expect(() => createMcpResource('just-a-name')).toThrow(/^Resource "just-a-name": give a URI with a scheme/)
    expect(() => createMcpResource('x://{a b}')).toThrow(ResourceDefinitionError)
    expect(() => createMcpResource('x://a').read('text' as never)).toThrow(/\.read\(\) takes a function/)
  })

  it('a template matches one segment per variable', () => {
    expect(order.match('orders://42/summary')).toEqual({ id: '42' })
    expect(order.match('orders://4/2/summary')).toBeUndefined()
    expect(config.match('config://app')).toEqual({})
  })
})

describe('served by createMcpServer', () => {
  it('lists static resources and templates, reads text, templates and binary; an unknown URI is not found (-32602 in 2026-07-28, with data.uri) naming what there is', async () => {
    const { client } = await connect()
    expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true })
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['config://app', 'file:///logo.bin', 'broken://x'])
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: 'orders://{id}/summary', name: 'Order summary', description: 'One order, by id', mimeType: 'text/plain' },
    ])
    expect((await client.readResource({ uri: 'config://app' })).contents).toEqual([{ uri: 'config://app', mimeType: 'application/json', text: '{"theme":"dark"}' }])
    expect((await client.readResource({ uri: 'orders://7/summary' })).contents).toEqual([{ uri: 'orders://7/summary', mimeType: 'text/plain', text: 'Order 7: 2 items' }])
    expect((await client.readResource({ uri: 'file:///logo.bin' })).contents).toEqual([{ uri: 'file:///logo.bin', blob: 'AQID' }])
    await expect(client.readResource({ uri: 'nope://x' })).rejects.toThrow(
      /Unknown resource "nope:\/\/x"\. This server has: config:\/\/app, file:\/\/\/logo\.bin, broken:\/\/x, orders:\/\/\{id\}\/summary\./,
    )
    await expect(client.readResource({ uri: 'nope://x' })).rejects.toMatchObject({ code: -32602, data: { uri: 'nope://x' } })
    await expect(client.readResource({ uri: 'broken://x' })).rejects.toThrow(/\.read\(\) returned neither text/)
  })

  it("completes a template's variables from its completer", async () => {
    const { client } = await connect()
    expect((await client.complete({ ref: { type: 'ref/resource', uri: 'orders://{id}/summary' }, argument: { name: 'id', value: '7' } })).completion).toEqual({
      values: ['7', '71'],
      total: 2,
      hasMore: false,
    })
    await expect(client.complete({ ref: { type: 'ref/resource', uri: 'orders://{x}' }, argument: { name: 'x', value: '' } })).rejects.toThrow(
      /Unknown resource template "orders:\/\/\{x\}"\. This server has: orders:\/\/\{id\}\/summary\./,
    )
    expect(() => createMcpResource('orders://{id}').complete({ idd: () => [] })).toThrow(/\.complete\(\) names "idd", which is not a variable of the template \(id\)/)
  })

  it('tells a subscribed client that a resource changed, and stops after it unsubscribes', async () => {
    const { server, client } = await connect()
    const updated: string[] = []
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri))
    await client.subscribeResource({ uri: 'config://app' })
    await server.notifyResourceUpdated('config://app')
    await server.notifyResourceUpdated('orders://1/summary') // not subscribed
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(updated).toEqual(['config://app'])
    await client.unsubscribeResource({ uri: 'config://app' })
    await server.notifyResourceUpdated('config://app')
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(updated).toEqual(['config://app'])
  })

  it('tells a 2026-07-28 client over HTTP on its listen stream, alone or beside the tasks it names', async () => {
    const server = createMcpServer({ name: 'resources-test', version: '1.0.0', tools: [bookFlight], resources: [config, order] })
    const http = await serveHttp(server)
    open.push(server, http)
    const subscribe = { resourceSubscriptions: ['config://app'] }
    for (const notifications of [subscribe, { ...subscribe, taskIds: ['not-a-task-of-yours'] }]) {
      const stream = await listen(http.url, notifications)
      if (stream.refused) throw new Error(stream.refused.message)
      const acknowledged = await stream.next((m) => m.method === 'notifications/subscriptions/acknowledged')
      expect(acknowledged.params?.notifications).toEqual('taskIds' in notifications ? { taskIds: [], ...subscribe } : subscribe)
      await server.notifyResourceUpdated('orders://1/summary') // not subscribed
      await server.notifyResourceUpdated('config://app')
      const updated = await stream.next((m) => m.method === 'notifications/resources/updated')
      expect(updated.params).toEqual({ uri: 'config://app', _meta: { 'io.modelcontextprotocol/subscriptionId': stream.id } })
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(stream.messages.filter((m) => m.method === 'notifications/resources/updated')).toHaveLength(1)
      stream.close()
    }
  }, 30_000)
})
