/**
 * A 2025-11-25 session's response stream resumed at a server that does not hold the session (its
 * own died; `session-resumption.ts`), in one process: two MCP servers on one memory store, each
 * over HTTP. A raw client opens a session on A and calls a tool; A's connections are then dropped
 * (its session is gone for the client) and the client resumes at B, as the SDK's transport does.
 * The kill itself, with the official clients, is `mcp-kill-mid-call.test.ts`.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpServer } from '../../src/mcp.ts'
import { createMemoryStore } from '../../src/server.ts'
import { eventIdOf, requestOfEventId, sessionCallId } from '../../src/mcp/session-resumption.ts'
import { createSessionEventStore } from '../../src/mcp/session-event-store.ts'
import { ticketDesk } from '../fixtures/ticket-desk.ts'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-resume-'))
const open: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  bearer = {}
  for (const c of open.splice(0)) await c.close()
})
process.on('exit', () => rmSync(dir, { recursive: true, force: true }))

const VERSION = { 'mcp-protocol-version': '2025-11-25' }

/** The SSE events of a response: id and parsed data (priming events have no data). */
async function events(response: Response): Promise<Array<{ id?: string; data?: { id?: unknown; method?: string; result?: unknown; error?: unknown } }>> {
  const text = await response.text()
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const id = /^id: (.*)$/m.exec(block)?.[1]
      const data = /^data: (.+)$/m.exec(block)?.[1]
      return { ...(id && { id }), ...(data && { data: JSON.parse(data) as never }) }
    })
}

/** Read an SSE response until an event satisfies `done`, then stop reading (the client "dies"). */
async function readUntil(response: Response, done: (e: { id?: string; data?: { method?: string } }) => boolean) {
  const seen: Array<{ id?: string; data?: { method?: string; id?: unknown } }> = []
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const { value, done: ended } = await reader.read()
    if (ended) return seen
    buffer += value
    let at: number
    while ((at = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, at)
      buffer = buffer.slice(at + 2)
      const id = /^id: (.*)$/m.exec(block)?.[1]
      const data = /^data: (.+)$/m.exec(block)?.[1]
      const event = { ...(id && { id }), ...(data && { data: JSON.parse(data) as never }) }
      seen.push(event)
      if (done(event)) {
        await reader.cancel()
        return seen
      }
    }
  }
}

/** Tokens of the OAuth case: the subject's name (`verifyToken` of a stand-in authorization server). */
const verifyToken = (resource: string) => (token: string) => ({ clientId: 'app', subject: token, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600, audience: resource })

/** Two servers on one store, each on its own port; with `oauth`, callers are named by their bearer token. */
async function twoServers({ oauth = false } = {}) {
  const store = createMemoryStore()
  const ledgerPath = join(dir, `ledger-${Math.random().toString(36).slice(2)}.db`)
  const make = async () => {
    const http = createServer()
    await new Promise<void>((ready) => http.listen(0, '127.0.0.1', ready))
    const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)
    const server = createMcpServer({ name: 'desk', version: '1', tools: [ticketDesk(ledgerPath)], store })
    const handler = server.createHandler(oauth ? { auth: { resource: url.href, authorizationServers: ['https://auth.example.com'], verifyToken: verifyToken(url.href) } } : {})
    http.on('request', (req, res) => void handler.node(req, res))
    open.unshift({
      async close() {
        await handler.close()
        await server.close()
        http.closeAllConnections()
        await new Promise((done) => http.close(() => done(undefined)))
      },
    })
    return { url }
  }
  return { store, a: await make(), b: await make() }
}

let bearer: Record<string, string> = {}
const post = (url: URL, headers: Record<string, string>, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer, ...headers }, body: JSON.stringify(body) })

/** A session on `url` whose tools/call (id `requestId`) is read up to its question, then left. */
async function callUntilAsked(url: URL, requestId: string) {
  const opened = await post(
    url,
    {},
    {
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {} } }, clientInfo: { name: 'raw', version: '1' } },
    },
  )
  const session = opened.headers.get('mcp-session-id')!
  await opened.text()
  const headers = { 'mcp-session-id': session, ...VERSION }
  await (await post(url, headers, { jsonrpc: '2.0', method: 'notifications/initialized' })).text()
  const call = await post(url, headers, { jsonrpc: '2.0', id: requestId, method: 'tools/call', params: { name: 'book_ticket', arguments: { route: 'OSL' } } })
  const seen = await readUntil(call, (e) => e.data?.method === 'elicitation/create')
  return { session, lastEventId: seen.at(-1)!.id!, primingId: seen[0]!.id! }
}

const resume = (url: URL, session: string, lastEventId: string, as: Record<string, string> = bearer) =>
  fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': lastEventId, ...VERSION, ...as } })

describe('event ids and call ids of a 2025-11-25 session', () => {
  it('name the request a stream answers (one request only), and derive the call id from the session and request', async () => {
    expect(requestOfEventId(eventIdOf('s1', 4, 7))).toBe(7)
    expect(requestOfEventId(eventIdOf('s1', 4, 'call-1'))).toBe('call-1')
    expect(requestOfEventId(eventIdOf('s1', 4, undefined))).toBeUndefined()
    expect(requestOfEventId('s1_4~not-base64-json')).toBeUndefined()
    expect(requestOfEventId(`s1_4~${Buffer.from('{"a":1}').toString('base64url')}`)).toBeUndefined()
    expect(sessionCallId('s', 1)).toBe(sessionCallId('s', 1))
    expect(sessionCallId('s', 1)).not.toBe(sessionCallId('s', '1'))
    expect(sessionCallId('s', 1)).not.toBe(sessionCallId('t', 1))

    const store = createSessionEventStore((stream) => (stream === 'one' ? [5] : stream === 'batch' ? [1, 2] : []))
    const primed = await store.storeEvent('one', {} as never)
    const next = await store.storeEvent('one', { jsonrpc: '2.0', method: 'notifications/progress' } as never)
    expect([primed, next].map(requestOfEventId)).toEqual([5, 5])
    expect(requestOfEventId(await store.storeEvent('batch', {} as never))).toBeUndefined()
    expect(requestOfEventId(await store.storeEvent('standalone', {} as never))).toBeUndefined()
  })
})

describe('a 2025-11-25 stream resumed at a server that does not hold its session', () => {
  it('ends the call waiting on a question asked in the lost session, answering the request with what the call had done; again the same, once it ended', async () => {
    const { a, b } = await twoServers()
    const { session, lastEventId } = await callUntilAsked(a.url, 'call-1')
    const resumed = await resume(b.url, session, lastEventId)
    expect(resumed.status).toBe(200)
    expect(resumed.headers.get('content-type')).toBe('text/event-stream')
    const [answer] = await events(resumed)
    expect(answer!.data).toMatchObject({ jsonrpc: '2.0', id: 'call-1', result: { isError: true } })
    const text = (answer!.data!.result as { content: Array<{ text: string }> }).content[0]!.text
    expect(text).toMatch(/^The tool call was aborted: its question was asked in a session whose server stopped .*; call the tool again\./)
    expect(text).toContain('"reserve fare" (its result: {"fareId":"F-OSL","price":120})')
    // At least once: a second resume (its first response lost too) gets the same.
    const again = await events(await resume(b.url, session, lastEventId))
    expect(again[0]!.data).toEqual(answer!.data)
  })

  it('answers a request that never started a tool call with an error that says to send it again; an event id naming no request, or another session, stays 404', async () => {
    const { a, b } = await twoServers()
    const { session, lastEventId } = await callUntilAsked(a.url, 'call-1')
    const nothing = await events(await resume(b.url, session, eventIdOf('any', 1, 'call-2')))
    expect(nothing[0]!.data).toMatchObject({
      id: 'call-2',
      error: { code: -32000, message: expect.stringMatching(/stopped before it started a tool call for it, so nothing of it ran; send it again/) },
    })
    const plain = await resume(b.url, session, 'any_1')
    expect(plain.status).toBe(404)
    await plain.text()
    // The call id is the session's and the request's: another session's id finds nothing of it.
    const other = await events(await resume(b.url, 'another-session', lastEventId))
    expect(other[0]!.data).toMatchObject({ id: 'call-1', error: { code: -32000 } })
  })

  it("with OAuth, is answered only for the caller who started the call: another caller's resume is refused (404) and changes nothing", async () => {
    const { store, a, b } = await twoServers({ oauth: true })
    bearer = { authorization: 'Bearer alice' }
    const { session, lastEventId } = await callUntilAsked(a.url, 'call-1')
    const mallory = await resume(b.url, session, lastEventId, { authorization: 'Bearer mallory' })
    expect(mallory.status).toBe(404)
    await mallory.text()
    expect(await store.get(sessionCallId(session, 'call-1'))).toMatchObject({ status: 'waiting' })
    const alice = await events(await resume(b.url, session, lastEventId))
    expect(alice[0]!.data).toMatchObject({ id: 'call-1', result: { isError: true } })
  })
})
