/**
 * The dev panel says a failure as every surface does: a stable code and a sentence to the page,
 * the details — a store's address, the driver's words, a stack — to the dev server's terminal;
 * a client's mistake is a 4xx that says what to send. And it answers only the developer: on this
 * machine, from its own page.
 */
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { ViteDevServer } from 'vite'
import { StoreUnavailableError } from '@mcp-bridge/runtime/errors'
import type { AppServer } from '@mcp-bridge/runtime/server'
import { panelMiddleware } from '../src/dev-panel/panel-routes.ts'

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve))
})

describe('the dev panel, when the call store does not answer', () => {
  it('answers 500 STORE_UNAVAILABLE with a sentence; the store and its error go to the terminal only', async () => {
    const logged: string[] = []
    const vite = { config: { logger: { error: (message: string) => void logged.push(message) } } } as unknown as ViteDevServer
    const failing = () => Promise.reject(new StoreUnavailableError('redis', 'redis://:hunter2@10.0.0.5:6379/0', new Error('connect ECONNREFUSED 10.0.0.5:6379')))
    const app = { chat: { devtools: { store: 'redis', calls: () => [], answer: failing, cancel: failing } } } as unknown as AppServer
    const middleware = panelMiddleware(vite, { generated: () => undefined, app: async () => app })
    const server = createServer((req, res) => void middleware(req, res, () => res.end()))
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/__mcp-bridge/api/calls/call-1/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'accept', content: {} }),
    })
    const text = await response.text()
    expect(response.status).toBe(500)
    expect(JSON.parse(text)).toEqual({ ok: false, code: 'STORE_UNAVAILABLE', message: "The dev panel could not do that; the details are in the dev server's terminal." })
    expect(text).not.toMatch(/10\.0\.0\.5|hunter2|ECONNREFUSED|redis:/)
    expect(logged.join('\n')).toMatch(
      /POST \/__mcp-bridge\/api\/calls\/call-1\/answer failed: StoreUnavailableError: The redis call store at redis:\/\/\*\*\*@10\.0\.0\.5:6379\/0 did not answer: connect ECONNREFUSED/,
    )
  })
})

/** The panel over HTTP on 127.0.0.1, with an app whose devtools record what reaches them; what Vite's CORS would add is added first. */
async function panel() {
  const reached: string[] = []
  const vite = { config: { logger: { error: () => {} } }, transformIndexHtml: async (_url: string, html: string) => html } as unknown as ViteDevServer
  const calls = () => [{ callId: 'call-1', tool: 'book', live: true, status: 'waiting', timeline: [] }]
  const app = {
    chat: {
      devtools: {
        store: 'memory',
        calls,
        answer: async (id: string, result: unknown) => (reached.push(`answer ${id} ${JSON.stringify(result)}`), { ok: true }),
        cancel: async (id: string) => (reached.push(`cancel ${id}`), { ok: true }),
      },
    },
  } as unknown as AppServer
  const middleware = panelMiddleware(vite, { generated: () => undefined, app: async () => app })
  const server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', req.headers.origin ?? '*') // as Vite's default CORS does for localhost pages
    void middleware(req, res, () => res.writeHead(404).end())
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  /** A request with exactly these headers (fetch would set Host itself). */
  const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: { ok?: boolean; code?: string; message?: string } & Record<string, unknown> }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { host: `localhost:${port}`, ...headers } }, (res) => {
        let text = ''
        res.on('data', (d: Buffer) => (text += d))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text.startsWith('{') ? JSON.parse(text) : { text } }))
      })
      req.on('error', reject)
      req.end(body)
    })
  return { send, reached, port }
}

describe('the dev panel answers only the developer', () => {
  it('refuses a LAN Host (vite --host) on every route, reading and answering alike, with 403 and where to open it', async () => {
    const { send, reached } = await panel()
    for (const [method, path] of [
      ['GET', '/__mcp-bridge/'],
      ['GET', '/__mcp-bridge/api/state'],
      ['POST', '/__mcp-bridge/api/calls/call-1/cancel'],
    ] as const) {
      const answer = await send(method, path, { host: '192.168.1.20:5173', 'content-type': 'application/json' })
      expect(answer.status).toBe(403)
      expect(answer.body).toEqual({
        ok: false,
        code: 'FORBIDDEN',
        message:
          'The dev panel answers only on the machine that runs the dev server (Host "192.168.1.20:5173" is not a loopback name): open http://localhost:<port>/__mcp-bridge/ there.',
      })
    }
    expect(reached).toEqual([])
  })

  it("refuses another page's request (Origin or Sec-Fetch-Site of another site), and grants no page a cross-origin read", async () => {
    const { send, reached, port } = await panel()
    const other = await send('GET', '/__mcp-bridge/api/state', { origin: 'http://localhost:3000' })
    expect([other.status, other.body.code]).toEqual([403, 'FORBIDDEN'])
    expect(other.body.message).toBe('The dev panel answers only its own page, not http://localhost:3000.')
    const site = await send('POST', '/__mcp-bridge/api/calls/call-1/cancel', { 'sec-fetch-site': 'same-site', 'content-type': 'application/json' })
    expect([site.status, site.body.code]).toEqual([403, 'FORBIDDEN'])
    expect(reached).toEqual([])
    // Its own page (same origin) and curl (no Origin) are served — with no CORS grant for anyone.
    const own = await send('GET', '/__mcp-bridge/api/state', { origin: `http://localhost:${port}`, 'sec-fetch-site': 'same-origin' })
    expect(own.status).toBe(200)
    expect(own.headers['access-control-allow-origin']).toBeUndefined()
    expect((own.body.calls as unknown[]).length).toBe(1)
    expect((await send('GET', '/__mcp-bridge/api/state', {})).status).toBe(200)
  })

  it('answers input mistakes with 4xx that say what to send, and nothing reaches the call', async () => {
    const { send, reached } = await panel()
    const notJson = await send('POST', '/__mcp-bridge/api/calls/call-1/answer', { 'content-type': 'application/json' }, '{"action": accept}')
    expect(notJson.status).toBe(400)
    expect(notJson.body).toMatchObject({
      ok: false,
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^The answer is not JSON \(.+\); send \{ "action": "accept", "content": \{ \.\.\. \} \}\. Nothing was sent to the call\.$/),
    })
    const form = await send('POST', '/__mcp-bridge/api/calls/call-1/answer', { 'content-type': 'application/x-www-form-urlencoded' }, 'action=accept')
    expect([form.status, form.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE'])
    const big = await send('POST', '/__mcp-bridge/api/calls/call-1/answer', { 'content-type': 'application/json' }, `{"x":"${'a'.repeat(1 << 20)}"}`)
    expect([big.status, big.body.code]).toEqual([413, 'TOO_LARGE'])
    expect(reached).toEqual([])
    // A proper answer goes through.
    expect((await send('POST', '/__mcp-bridge/api/calls/call-1/answer', { 'content-type': 'application/json' }, '{"action":"accept","content":{}}')).status).toBe(200)
    expect(reached).toEqual(['answer call-1 {"action":"accept","content":{}}'])
  })
})
