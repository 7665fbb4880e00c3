/** createMcpServer over Streamable HTTP on 127.0.0.1, with official clients of both generations. */
import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpServer } from '../../src/mcp.ts'
import { bookFlight } from '../fixtures/book-flight.ts'
import { waitingTool } from '../fixtures/mcp-tools.ts'
import { accept, connectClient, GENERATIONS, serveHttp } from './support/mcp-clients.ts'

const open: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  for (const c of open.splice(0)) await c.close()
})

describe.each(GENERATIONS)('Streamable HTTP, %s client', (generation) => {
  it('books a flight: elicitations, sampling, logs and progress over HTTP', async () => {
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight] })
    const http = await serveHttp(server)
    open.push(server, http)
    const client = await connectClient(server, generation, { http: http.url })
    open.unshift(client)
    expect(client.client.getNegotiatedProtocolVersion()).toBe(generation)
    client.elicitAnswers.push(accept({ flightId: 'SH-142' }), accept({ row: 3, seat: 'B' }))
    client.sampleAnswers.push(() => ({ role: 'assistant', content: { type: 'text', text: 'Pack light.' }, model: 'm' }))

    const result = await client.call('book_flight', { from: 'OSL', destination: 'BER' })
    expect(result.structuredContent).toMatchObject({ ticketNumber: 'TK-SH-142-3B', tip: 'Pack light.' })
    const kinds = client.received.filter((r) => r.kind !== 'progress' || !r.message?.startsWith('Fulfilling')).map((r) => r.kind)
    expect(kinds).toEqual(['log', 'elicit', 'elicit', 'progress', 'sample', 'progress'])
    const pick = client.received.find((r) => r.kind === 'elicit')
    expect(pick?.kind === 'elicit' && (pick.params.requestedSchema as Record<string, unknown>)['x-model-context']).toMatchObject({ flights: [{ id: 'SH-142' }, { id: 'CA-287' }] })
  })
})

describe('HTTP boundary', () => {
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })

  it.each([
    ['another Host (DNS rebinding)', {}, { host: 'evil.example' }, /Host "evil\.example" is not served here \(DNS-rebinding protection\)\. If this is your server's name, add "evil\.example" to allowedHosts/],
    ['a page of another origin', {}, { origin: 'http://evil.example' }, /Pages from http:\/\/evil\.example may not use this server\. If they should, add "http:\/\/evil\.example" to allowedOrigins/],
    ['an origin not in allowedOrigins', { allowedOrigins: ['https://app.example.com'] }, { origin: 'http://localhost:3000' }, /Pages from http:\/\/localhost:3000/],
    ['a host not in allowedHosts', { allowedHosts: ['api.example.com'] }, {}, /Host "127\.0\.0\.1:\d+" is not served here/],
  ])('refuses %s with 403, naming the value and the option (Origin is checked by default)', async (_what, options, headers, message) => {
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight] })
    const http = await serveHttp(server, options)
    open.push(server, http)
    const { status, body } = await post(http.url, headers, initialize)
    expect(status).toBe(403)
    expect(JSON.parse(body).error.message).toMatch(message)
  })

  it.each([
    ['no Origin (not a browser)', {}, {}],
    ['its own origin', {}, { origin: 'SELF' }],
    ['a loopback origin', {}, { origin: 'http://localhost:3000' }],
    ['a listed host and origin', { allowedHosts: ['api.example.com'], allowedOrigins: ['https://app.example.com'] }, { host: 'api.example.com', origin: 'https://app.example.com' }],
    ['any host and origin when both are true', { allowedHosts: true, allowedOrigins: true }, { host: 'evil.example', origin: 'http://evil.example' }],
  ] as const)('serves %s', async (_what, options, headers) => {
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight] })
    const http = await serveHttp(server, options)
    open.push(server, http)
    const sent = { ...headers, ...('origin' in headers && headers.origin === 'SELF' && { origin: http.url.origin }) }
    const { status } = await post(http.url, sent, initialize)
    expect(status).toBe(200)
  })

  it('refuses origin options that are not a list or true', () => {
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight] })
    expect(() => server.createHandler({ allowedHosts: 'localhost' as never })).toThrow(/createHandler: allowedHosts: .*give a list of names/)
    expect(() => server.createHandler({ allowedOrigins: [''] })).toThrow(/allowedOrigins\.0: an empty name matches nothing/)
  })

  it('answers a 2025-11-25 request for an unknown session with 404, and keeps serving', async () => {
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight] })
    const http = await serveHttp(server)
    open.push(server, http)
    const { status, body } = await post(http.url, { 'mcp-session-id': 'gone' }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }))
    expect(status).toBe(404)
    expect(JSON.parse(body).error.message).toMatch(/Session "gone" not found \(it ended, or the server restarted\); initialize a new one/)
    const client = await connectClient(server, '2025-11-25', { http: http.url })
    open.unshift(client)
    expect((await client.client.listTools()).tools.map((t) => t.name)).toEqual(['book_flight'])
  })
})

/** A raw POST with headers fetch() would not send (Host). */
function post(url: URL, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let text = ''
      res.on('data', (d: Buffer) => (text += d.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

describe('cancelling while the person is still answering (2025-11-25)', () => {
  it('aborts the suspended tool; its finally runs', async () => {
    const waiting = waitingTool()
    const server = createMcpServer({ name: 's', version: '1', tools: [waiting.tool] })
    open.push(server)
    const client = await connectClient(server, '2025-11-25')
    open.unshift(client)
    let shown: () => void = () => {}
    const elicitationShown = new Promise<void>((resolve) => (shown = resolve))
    client.elicitAnswers.push(() => {
      shown()
      return new Promise(() => {}) // the person never answers
    })
    const controller = new AbortController()
    const call = client.call('wait_for_user', {}, { signal: controller.signal })
    await elicitationShown
    controller.abort('closed the dialog')
    await expect(call).rejects.toThrow()
    await waiting.cleanedUp
    expect(server.suspendedCalls).toBe(0)
  })
})
