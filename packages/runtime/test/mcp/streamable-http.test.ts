/** createMcpServer over Streamable HTTP on 127.0.0.1, with official clients of both generations. */
import { request } from 'node:http'
import { Client as Client132 } from 'mcp-sdk-1-32/client/index.js'
import { StreamableHTTPClientTransport as Http132 } from 'mcp-sdk-1-32/client/streamableHttp.js'
import { suspend } from 'effection'
import { z } from 'zod/v4'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMcpServer } from '../../src/mcp.ts'
import { createMcpTool } from '../../src/index.ts'
import { createTestClock } from '../../src/testing.ts'
import { bookFlight } from '../fixtures/book-flight.ts'
import { waitingTool } from '../fixtures/mcp-tools.ts'
import { clientAddressOf } from '../../src/http/client-address.ts'
import { createSessionEventStore } from '../../src/mcp/session-event-store.ts'
import { accept, connectClient, GENERATIONS, serveHttp, textOf } from './support/mcp-clients.ts'
import { until } from '../support/until.ts'

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

describe('a 2025-11-25 stream that drops mid-call', () => {
  it('is resumed with Last-Event-ID: the questions asked and the result sent meanwhile still arrive', async () => {
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight] })
    const http = await serveHttp(server)
    open.push(server, http)
    let cut = false
    const resumedWith: string[] = []
    // The tools/call response stream is cut right after it delivered the first question.
    const breaking: typeof fetch = async (input, init) => {
      const lastEventId = new Headers(init?.headers).get('last-event-id')
      if (lastEventId) resumedWith.push(lastEventId)
      const response = await fetch(input, init)
      if (cut || !String(init?.body ?? '').includes('"tools/call"') || !response.body) return response
      cut = true
      const reader = response.body.getReader()
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { value, done } = await reader.read()
          if (done) return controller.close()
          controller.enqueue(value)
          if (new TextDecoder().decode(value).includes('elicitation/create')) {
            await reader.cancel() // the connection goes away
            controller.error(new TypeError('network connection lost'))
          }
        },
      })
      return new Response(body, { status: response.status, headers: response.headers })
    }
    const client = await connectClient(server, '2025-11-25', { http: http.url, fetch: breaking })
    open.unshift(client)
    client.elicitAnswers.push(accept({ flightId: 'SH-142' }), accept({ row: 3, seat: 'B' }))
    client.sampleAnswers.push(() => ({ role: 'assistant', content: { type: 'text', text: 'Pack light.' }, model: 'm' }))

    const result = await client.call('book_flight', { from: 'OSL', destination: 'BER' })
    expect(cut).toBe(true)
    expect(resumedWith.length).toBeGreaterThan(0)
    expect(result.structuredContent).toMatchObject({ ticketNumber: 'TK-SH-142-3B', tip: 'Pack light.' })
    expect(client.received.filter((r) => r.kind === 'elicit')).toHaveLength(2)
  }, 30_000)
})

describe('the session event store', () => {
  it('replays what followed an event on its stream (not priming events), and names an event it no longer keeps', async () => {
    const store = createSessionEventStore(() => [], 3)
    const ping = (id: number) => ({ jsonrpc: '2.0' as const, id, method: 'ping' })
    const primed = await store.storeEvent('s1', {} as never)
    await store.storeEvent('s1', ping(1))
    await store.storeEvent('s2', ping(2))
    await store.storeEvent('s1', ping(3))
    const sent: unknown[] = []
    await expect(store.replayEventsAfter(primed, { send: async () => {} })).rejects.toMatchObject({ code: 'UNKNOWN_EVENT_ID' })
    expect(await store.getStreamIdForEventId!('s1_2')).toBe('s1')
    expect(await store.replayEventsAfter('s1_2', { send: async (id, m) => void sent.push([id, m]) })).toBe('s1')
    expect(sent).toEqual([['s1_4', ping(3)]])
  })
})

describe('per-client limit over HTTP', () => {
  it('refuses a client a call past limits.maxCallsPerClient (by remote address); another client still gets one', async () => {
    const waiting = waitingTool()
    const keyed = new Map<string, string>()
    const server = createMcpServer({
      name: 'http-test',
      version: '1.0.0',
      tools: [waiting.tool],
      limits: { maxCallsPerClient: 1 },
      // The default key (the remote address) is the same for every client of this test; tell them
      // apart by a header, and record what the default would have said.
      clientKey: (request) => {
        const who = request.headers.get('x-client') ?? 'none'
        keyed.set(who, clientAddressOf(request) ?? 'no address')
        return who
      },
    })
    const http = await serveHttp(server)
    open.push(server, http)
    const connect = async (who: string) => {
      const client = await connectClient(server, '2025-11-25', { http: http.url, headers: { 'x-client': who } })
      open.unshift(client)
      // The person never answers while the test runs.
      client.elicitAnswers.push(() => new Promise(() => {}))
      return client
    }
    const mallory = await connect('mallory')
    void mallory.call('wait_for_user').catch(() => {})
    await until(() => server.suspendedCalls === 1)
    const refused = await mallory.call('wait_for_user')
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toMatch(/You already hold 1 tool calls on this server \(limits\.maxCallsPerClient\)/)
    const alice = await connect('alice')
    void alice.call('wait_for_user').catch(() => {})
    await until(() => server.suspendedCalls === 2)
    expect(keyed.get('mallory')).toMatch(/127\.0\.0\.1/)
  })
})

describe('2025-11-25 sessions', () => {
  const init = (headers: Record<string, string> = {}) =>
    fetch(HTTP_URL.value!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    })
  const HTTP_URL: { value?: URL } = {}

  it('are limited per client — its least recently used session without a request in flight makes room; 429 only when every one answers a request — and in all (503)', async () => {
    const hang = createMcpTool('hang')
      .elicits({})
      .execute(function* () {
        yield* suspend()
      })
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight, hang], clientKey: (r) => r.headers.get('x-client') ?? 'none' })
    const http = await serveHttp(server, { maxLegacySessionsPerClient: 2, maxLegacySessions: 3 })
    open.push(server, http)
    HTTP_URL.value = http.url
    const sessionOf = async (response: Response) => (await response.text(), response.headers.get('mcp-session-id')!)
    const list = (id: string) =>
      post(http.url, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }))
    const first = await sessionOf(await init({ 'x-client': 'mallory' }))
    const second = await sessionOf(await init({ 'x-client': 'mallory' }))
    expect((await list(first)).status).toBe(200) // used last: the second is now the least recently used
    // A client that never DELETEs (the Inspector, SDK 1.x) opens a third: its idle LRU session goes.
    const third = await sessionOf(await init({ 'x-client': 'mallory' }))
    expect((await list(second)).status).toBe(404)
    expect((await list(first)).status).toBe(200)
    expect((await list(third)).status).toBe(200)
    // An open GET stream alone does not hold a session: a client that never closes its streams
    // (nor DELETEs) gets the least recently used one closed to make room, not a 429.
    const streams: AbortController[] = []
    const openStream = async (id: string) => {
      const stop = new AbortController()
      streams.push(stop)
      await fetch(http.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }, signal: stop.signal })
    }
    await openStream(first)
    const fourth = await sessionOf(await init({ 'x-client': 'mallory' }))
    expect((await list(third)).status).toBe(404) // one without a stream goes first
    await openStream(fourth)
    const fifth = await sessionOf(await init({ 'x-client': 'mallory' }))
    expect((await list(first)).status).toBe(404) // then the least recently used of those streaming
    for (const stop of streams) stop.abort()
    // Both of its sessions answering a request (a call still running each): now it is refused, and told why.
    /** A call of the `hang` tool in session `id` (request `requestId`): the session answers a request until it is stopped. */
    const hangIn = (id: string, requestId: number) => {
      const stop = new AbortController()
      const body = JSON.stringify({ jsonrpc: '2.0', id: requestId, method: 'tools/call', params: { name: 'hang', arguments: {} } })
      const opened = fetch(http.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
        body,
        signal: stop.signal,
      })
      return { stop, opened }
    }
    const calls = [fourth, fifth].map((id) => hangIn(id, 9))
    await Promise.all(calls.map((c) => c.opened))
    const busy = await init({ 'x-client': 'mallory' })
    expect(busy.status).toBe(429)
    expect(((await busy.json()) as { error: { message: string } }).error.message).toMatch(
      /You already hold 2 sessions on this server \(maxLegacySessionsPerClient\), each of them answering a request/,
    )
    for (const c of calls) c.stop.abort()
    const alice = await sessionOf(await init({ 'x-client': 'alice' }))
    // All three taken (mallory 2, alice 1): a client holding nothing gets in once one of mallory's is idle again — her least recently used makes room.
    let bob = ''
    await vi.waitFor(
      async () => {
        const answer = await init({ 'x-client': 'bob' })
        expect(answer.status).toBe(200)
        bob = await sessionOf(answer)
      },
      { timeout: 10_000, interval: 20 },
    )
    const statuses = { [fourth]: (await list(fourth)).status, [fifth]: (await list(fifth)).status }
    expect(Object.values(statuses).sort()).toEqual([200, 404])
    // 503 only when no session may be closed: every one answering a request.
    // A new request id: the session still knows its call 9 (cancelled above).
    const hanging = [alice, bob, statuses[fourth] === 200 ? fourth : fifth].map((id) => hangIn(id, 10))
    await Promise.all(hanging.map((c) => c.opened))
    const full = await init({ 'x-client': 'carol' })
    expect([full.status, ((await full.json()) as { error: { message: string } }).error.message]).toEqual([
      503,
      expect.stringMatching(/holds 3 sessions already \(maxLegacySessions\), each answering a request/),
    ])
    for (const c of hanging) c.stop.abort()
  })

  it('cannot be locked for everyone by many addresses: 12 addresses of one /24 holding every session, an SDK 1.x client from another network still connects and calls', async () => {
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight] })
    const http = await serveHttp(server, { maxLegacySessions: 24, maxLegacySessionsPerClient: 2 })
    open.push(server, http)
    // Each attacker address initializes twice and never DELETEs: 24 sessions, the total cap.
    const initFrom = (localAddress: string) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
        })
        const req = request(http.url, { method: 'POST', localAddress, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        })
        req.on('error', reject)
        req.end(body)
      })
    for (let host = 2; host < 14; host++) for (let i = 0; i < 2; i++) expect(await initFrom(`127.0.1.${host}`)).toBe(200)
    expect(await initFrom('127.0.1.99')).toBe(200) // even a neighbour gets in: its /24 holds the most, its address nothing
    // The official SDK 1.x client, from 127.0.0.1: admitted, and it books (one of the flood's sessions closed for it).
    const client = new Client132({ name: 'ordinary', version: '1.0.0' }, { capabilities: { elicitation: { form: {} }, sampling: {} } })
    await client.connect(new Http132(http.url))
    open.unshift({ close: () => client.close() })
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['book_flight'])
  })

  it('an SDK 1.x client that connects, pings and closes without DELETE, twelve times over, is served every time (the dropped GET stream of each leaves its session idle, to make room)', async () => {
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight] })
    const http = await serveHttp(server)
    open.push(server, http)
    HTTP_URL.value = http.url
    for (let i = 0; i < 12; i++) {
      const client = new Client132({ name: 'sdk-1.32', version: '1' }, { capabilities: {} })
      await client.connect(new Http132(http.url))
      expect(await client.ping()).toEqual({})
      await client.close() // the SDK aborts its GET stream and sends no DELETE
    }
  }, 60_000)

  it('are closed when no request used them for legacySessionIdleMs', async () => {
    const clock = createTestClock()
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight], clock })
    const http = await serveHttp(server, { legacySessionIdleMs: 1000 })
    open.push(server, http)
    HTTP_URL.value = http.url
    const first = await init()
    const sessionId = first.headers.get('mcp-session-id')!
    await first.text()
    const list = () =>
      post(http.url, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }))
    await clock.advance(999)
    expect((await list()).status).toBe(200) // in use: the idle time starts again after it
    await clock.advance(999)
    expect((await list()).status).toBe(200)
    await clock.advance(1_000)
    const late = await list()
    expect(late.status).toBe(404)
    expect(late.body).toMatch(/not found \(it ended, expired, or the server restarted\)/)
  }, 20_000)

  it('open a GET stream at once (headers flushed), and release a dropped one: the next GET is served', async () => {
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight] })
    const http = await serveHttp(server)
    open.push(server, http)
    HTTP_URL.value = http.url
    const first = await init()
    const headers = { accept: 'text/event-stream', 'mcp-session-id': first.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' }
    await first.text()
    // Bounded: a GET whose headers never come resolves to 'no headers' instead of hanging the test.
    const get = (signal: AbortSignal) =>
      Promise.race([fetch(http.url, { headers, signal }).then((r) => r.status), new Promise<string>((r) => setTimeout(() => r('no headers'), 5_000))])
    const dropped = new AbortController()
    expect(await get(dropped.signal)).toBe(200)
    dropped.abort()
    // The server learns of the drop when the socket closes; until then a new GET is a second
    // stream (409). It must be released soon after, never kept for good.
    let status: number | string = 0
    for (let i = 0; i < 50 && status !== 200; i++) {
      const next = new AbortController()
      status = await get(next.signal)
      next.abort()
      if (status !== 200) await new Promise((r) => setTimeout(r, 100))
    }
    expect(status).toBe(200)
  }, 20_000)

  it('refuses bad createHandler options, naming each', () => {
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight] })
    expect(() => server.createHandler({ legacySessionIdleMs: Number.POSITIVE_INFINITY })).toThrow(/legacySessionIdleMs/)
    expect(() => server.createHandler({ maxLegacySessions: Number.NaN })).toThrow(/maxLegacySessions/)
    expect(() => server.createHandler({ maxSessions: 5 } as never)).toThrow(/Unrecognized key: "maxSessions"/)
    expect(() => server.createHandler({ streamRetryMs: 50 })).toThrow(/streamRetryMs: at least 100 ms/)
    expect(() => server.createHandler({ streamRetryMs: 120_000 })).toThrow(/streamRetryMs: at most 60 s/)
  })
})

describe('HTTP boundary', () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  })

  it.each([
    [
      'another Host (DNS rebinding)',
      {},
      { host: 'evil.example' },
      /Host "evil\.example" is not served here \(DNS-rebinding protection\)\. If this is your server's name, add "evil\.example" to allowedHosts/,
    ],
    [
      'a page of another origin',
      {},
      { origin: 'http://evil.example' },
      /Pages from http:\/\/evil\.example may not use this server\. If they should, add "http:\/\/evil\.example" to allowedOrigins/,
    ],
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
    [
      'a listed host and origin',
      { allowedHosts: ['api.example.com'], allowedOrigins: ['https://app.example.com'] },
      { host: 'api.example.com', origin: 'https://app.example.com' },
    ],
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

  it('a 2025-11-25 request cancelled while its question is open: the tool is aborted and the request’s response stream ends at once, though no response is sent', async () => {
    const { tool, cleanedUp } = waitingTool()
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [tool] })
    const http = await serveHttp(server)
    open.push(server, http)
    const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
    const opened = await fetch(http.url, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {} } }, clientInfo: { name: 'raw', version: '1' } },
      }),
    })
    const headers = { ...json, 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' }
    await opened.text()
    await (await fetch(http.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text()
    const call = await fetch(http.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait_for_user', arguments: {} } }),
    })
    const reader = call.body!.getReader()
    let seen = ''
    while (!seen.includes('elicitation/create')) seen += new TextDecoder().decode((await reader.read()).value)
    await (
      await fetch(http.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'the user left' } }),
      })
    ).text()
    await cleanedUp
    // The stream ends (a hang here would be the client's timeout; 10 s is only the test's bound on it).
    const rest: string[] = []
    const ended = await Promise.race([
      (async () => {
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest.push(new TextDecoder().decode(chunk.value))
        return true
      })(),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 10_000)),
    ])
    expect(ended).toBe(true)
    expect(rest.join('')).not.toContain('"id":2') // no response to the cancelled request
  }, 20_000)

  it('SEP-2243: a 2026-07-28 call whose Mcp-Param header disagrees with its body, or lacks it, is refused (400, -32020); one that agrees runs', async () => {
    const regional = createMcpTool('regional')
      .parameters(z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }))
      .execute(function* (params) {
        return `Region: ${params.region}`
      })
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [regional] })
    const http = await serveHttp(server)
    open.push(server, http)
    const call = async (header: string | undefined) => {
      const response = await fetch(http.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'regional',
          ...(header !== undefined && { 'mcp-param-region': header }),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'regional',
            arguments: { region: 'eu-west' },
            _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
          },
        }),
      })
      const text = await response.text()
      return {
        status: response.status,
        body: JSON.parse(text.startsWith('{') ? text : text.slice(text.indexOf('{'))) as { result?: { content: Array<{ text: string }> }; error?: { code: number } },
      }
    }
    expect(await call('us-east')).toMatchObject({ status: 400, body: { error: { code: -32020 } } })
    expect(await call(undefined)).toMatchObject({ status: 400, body: { error: { code: -32020 } } })
    expect(await call('eu-west')).toMatchObject({ status: 200, body: { result: { content: [{ text: 'Region: eu-west' }] } } })
  })

  it('promises no list_changed (its lists are fixed): both generations see listChanged false, and a 2026-07-28 subscription is acknowledged without it', async () => {
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight] })
    const http = await serveHttp(server)
    open.push(server, http)
    for (const generation of GENERATIONS) {
      const client = await connectClient(undefined, generation, { http: http.url })
      expect(client.client.getServerCapabilities()?.tools).toEqual({ listChanged: false })
      await client.close()
    }
    const stop = new AbortController()
    const listen = await fetch(http.url, {
      method: 'POST',
      signal: stop.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'subscriptions/listen',
        params: {
          notifications: { toolsListChanged: true },
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      }),
    })
    const reader = listen.body!.getReader()
    let text = ''
    while (!text.includes('notifications/subscriptions/acknowledged')) text += new TextDecoder().decode((await reader.read()).value)
    stop.abort()
    const ack = JSON.parse(
      text
        .split('\n')
        .find((line) => line.includes('acknowledged'))!
        .replace(/^data: ?/, ''),
    ) as { params: { notifications: Record<string, unknown> } }
    expect(ack.params.notifications.toolsListChanged).toBeUndefined()
  })

  it('refuses an initialize inside a JSON-RPC batch, alone or with other messages (400, -32600): no session is opened', async () => {
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight] })
    const http = await serveHttp(server)
    open.push(server, http)
    const init = JSON.parse(initialize) as object
    for (const batch of [[init], [init, { jsonrpc: '2.0', method: 'notifications/initialized' }]]) {
      const refused = await fetch(http.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(batch),
      })
      expect(refused.status).toBe(400)
      expect(refused.headers.get('mcp-session-id')).toBeNull()
      expect((await refused.json()).error).toEqual({
        code: -32600,
        message: 'An initialize request must be sent alone, not in a JSON-RPC batch; send it first, then the other messages. Nothing was run.',
      })
    }
    // Sent alone, it opens its session.
    const opened = await fetch(http.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: initialize })
    expect(opened.headers.get('mcp-session-id')).toBeTruthy()
    await opened.text()
  })

  it('refuses a JSON-RPC batch from a client speaking 2025-06-18 or later (400, -32600, nothing run), and opens its streams with an SSE retry', async () => {
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight] })
    const http = await serveHttp(server)
    open.push(server, http)
    const opened = await fetch(http.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: initialize })
    const session = opened.headers.get('mcp-session-id')!
    await opened.text()
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { jsonrpc: '2.0', id: 3, method: 'ping' },
    ])
    const refused = await post(http.url, headers, batch)
    expect(refused.status).toBe(400)
    expect(JSON.parse(refused.body).error).toEqual({
      code: -32600,
      message: expect.stringMatching(
        /^Batched JSON-RPC messages are not part of MCP since 2025-06-18 \(this request says 2025-11-25\); send one message per request\. Nothing was run\.$/,
      ),
    })
    // One message at a time is served, on a stream that first tells the client when to reconnect.
    const served = await post(http.url, headers, JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }))
    expect(served.status).toBe(200)
    expect(served.body).toMatch(/^id: .+\nretry: 2500\n/)
    expect(served.body).toContain('"id":4')
  })

  it('answers a 2025-11-25 request for an unknown session with 404, and keeps serving', async () => {
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight] })
    const http = await serveHttp(server)
    open.push(server, http)
    const { status, body } = await post(http.url, { 'mcp-session-id': 'gone' }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }))
    expect(status).toBe(404)
    expect(JSON.parse(body).error.message).toMatch(/Session "gone" not found \(it ended, expired, or the server restarted\); initialize a new one/)
    const client = await connectClient(server, '2025-11-25', { http: http.url })
    open.unshift(client)
    expect((await client.client.listTools()).tools.map((t) => t.name)).toEqual(['book_flight'])
  })

  it('answers a method Streamable HTTP does not have (PUT, PATCH, HEAD) with 405 and Allow, with or without a session', async () => {
    const server = createMcpServer({ name: 'http-test', version: '1.0.0', tools: [bookFlight] })
    const http = await serveHttp(server)
    open.push(server, http)
    for (const [method, headers] of [
      ['PUT', {}],
      ['PATCH', { 'mcp-session-id': 'any', 'mcp-protocol-version': '2025-11-25' }],
      ['HEAD', {}],
    ] as const) {
      const response = await fetch(http.url, { method, headers: { 'content-type': 'application/json', ...headers }, ...(method === 'HEAD' ? {} : { body: '{}' }) })
      expect([method, response.status, response.headers.get('allow')]).toEqual([method, 405, 'GET, POST, DELETE'])
      if (method !== 'HEAD')
        expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
          `${method} is not a method of this MCP endpoint: POST a JSON-RPC message, GET a stream, or DELETE a session.`,
        )
    }
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
