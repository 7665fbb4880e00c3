/**
 * serveApp: the app server and the built client under Node — routes, static files with their
 * cache rules, client-side routes, closing, and clear errors for bad definitions and options.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { createAppServer, createClientKey, DEFAULT_RATE_LIMIT, serveApp, type ServedApp } from '../../src/server.ts'
import { OptionsError, ServeAppListenError } from '../../src/errors.ts'
import { createTestClock } from '../../src/testing.ts'

const dist = mkdtempSync(join(tmpdir(), 'serve-app-'))
mkdirSync(join(dist, 'assets'))
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>')
writeFileSync(join(dist, 'assets/app-1234.js'), 'console.log(1)')
const served: ServedApp[] = []
afterAll(async () => {
  for (const s of served) await s.close().catch(() => {})
  rmSync(dist, { recursive: true, force: true })
})

function app(log: string[] = []) {
  const chat = Object.assign(async (request: Request) => new Response(`chat ${request.method} ${new URL(request.url).pathname}`), {
    close: async () => void log.push('chat closed'),
  })
  const mcp = { fetch: async () => new Response('mcp'), close: async () => void log.push('mcp closed') }
  return createAppServer({ chat, mcp, close: () => void log.push('store closed') })
}

describe('serveApp', () => {
  it('serves the chat and MCP paths, the files with their cache rules, and index.html for client routes; close() closes in order', async () => {
    const log: string[] = []
    const s = await serveApp(app(log), { staticDir: dist, port: 0, handleSignals: false })
    served.push(s)
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    const get = (path: string, init?: RequestInit) => fetch(new URL(path, s.url), init)

    expect(await (await get('/api/chat', { method: 'POST', body: '{}' })).text()).toBe('chat POST /api/chat')
    expect(await (await get('/mcp?x=1', { method: 'POST', body: '{}' })).text()).toBe('mcp')
    const index = await get('/')
    expect([index.status, index.headers.get('cache-control'), await index.text()]).toEqual([200, 'no-cache', '<!doctype html><title>app</title>'])
    const asset = await get('/assets/app-1234.js')
    expect([asset.status, asset.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable'])
    expect(await (await get('/trips/42')).text()).toBe('<!doctype html><title>app</title>') // a client-side route
    expect((await get('/assets/missing.js')).status).toBe(404)

    await s.close()
    expect(log).toEqual(['chat closed', 'mcp closed', 'store closed'])
    await expect(get('/')).rejects.toThrow()
  })

  it('serves only files whose real path is inside the client folder: a link out or to nowhere is skipped with a warning, not served, not a crash', async () => {
    const client = mkdtempSync(join(tmpdir(), 'serve-app-links-'))
    const outside = mkdtempSync(join(tmpdir(), 'serve-app-outside-'))
    try {
      mkdirSync(join(client, 'assets'))
      writeFileSync(join(client, 'index.html'), '<!doctype html><title>linked</title>')
      writeFileSync(join(client, 'assets/app.js'), 'console.log("app")')
      writeFileSync(join(outside, 'secret.txt'), 'root:x:0:0')
      symlinkSync(join(outside, 'secret.txt'), join(client, 'secret.txt'))
      symlinkSync(outside, join(client, 'outside-folder'))
      symlinkSync(join(client, 'nothing-here'), join(client, 'gone.txt'))
      symlinkSync(join(client, 'assets/app.js'), join(client, 'alias.js'))
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
      const s = await serveApp(app(), { staticDir: client, port: 0, handleSignals: false })
      served.push(s)
      const warned = warn.mock.calls.map(([line]) => String(line))
      warn.mockRestore()
      expect(warned).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/not serving secret\.txt → points outside the client folder/),
          expect.stringMatching(/not serving outside-folder → points outside the client folder/),
          expect.stringMatching(/not serving gone\.txt → points nowhere/),
        ]),
      )
      expect(warned).toHaveLength(3)
      const text = async (path: string) => (await fetch(new URL(path, s.url))).text()
      for (const path of ['/secret.txt', '/outside-folder/secret.txt', '/gone.txt']) {
        const response = await fetch(new URL(path, s.url))
        expect([path, response.status]).toEqual([path, 404])
        expect(await response.text()).not.toContain('root:x')
      }
      expect(await text('/alias.js')).toBe('console.log("app")') // a link inside the folder is fine
      const asset = await fetch(new URL('/assets/app.js', s.url))
      expect([await asset.text(), asset.headers.get('cache-control')]).toEqual(['console.log("app")', 'public, max-age=31536000, immutable'])
      await s.close()
    } finally {
      rmSync(client, { recursive: true, force: true })
      rmSync(outside, { recursive: true, force: true })
    }
  })

  it('limits the chat and MCP paths per client with rateLimit (429 RATE_LIMITED, Retry-After); static files are not counted', async () => {
    const clock = createTestClock()
    const s = await serveApp(app(), { staticDir: dist, port: 0, handleSignals: false, rateLimit: { requestsPerSecond: 1, burst: 2 }, clock })
    served.push(s)
    const chat = () => fetch(new URL('/api/chat', s.url), { method: 'POST', body: '{}' })
    expect((await chat()).status).toBe(200)
    expect((await chat()).status).toBe(200)
    const refused = await chat()
    expect([refused.status, refused.headers.get('retry-after'), await refused.json()]).toEqual([
      429,
      '1',
      { code: 'RATE_LIMITED', message: 'Too many requests from this client; try again in 1 s.' },
    ])
    expect((await fetch(new URL('/mcp', s.url), { method: 'POST', body: '{}' })).status).toBe(429) // one bucket for the client
    for (let i = 0; i < 5; i++) expect((await fetch(new URL('/assets/app-1234.js', s.url))).status).toBe(200)
    await clock.advance(1000)
    expect((await chat()).status).toBe(200)
    await expect(serveApp(app(), { rateLimit: { requestsPerSecond: 0 } } as never)).rejects.toThrow(OptionsError)
  })

  it('limits by default (50/s, bursts of 200), counting clients as the endpoint does: addresses of one IPv6 /64 share a bucket; rateLimit: false turns it off', async () => {
    const clock = createTestClock()
    // Behind one proxy: the endpoint's clientKey reads X-Forwarded-For, and the limit counts by it.
    const chat = Object.assign(async () => new Response('ok'), { clientKey: createClientKey({ trustProxyHops: 1 }) })
    const s = await serveApp(createAppServer({ chat }), { port: 0, handleSignals: false, clock })
    served.push(s)
    const from = (address: string) => fetch(new URL('/api/chat', s.url), { method: 'POST', body: '{}', headers: { 'x-forwarded-for': address } })
    // One host rotating through its /64: 200 served, then refused, whichever address it takes next.
    const statuses: number[] = []
    for (let i = 0; i < 201; i++) statuses.push((await from(`2001:db8:1:2::${(i + 1).toString(16)}`)).status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(DEFAULT_RATE_LIMIT.burst)
    expect(statuses.at(-1)).toBe(429)
    expect((await from('2001:db8:1:2:ffff::9')).status).toBe(429)
    // Another /64 (a neighbour in the same /48) has its own bucket.
    expect((await from('2001:db8:1:3::1')).status).toBe(200)
    await clock.advance(1000) // 50 more a second
    expect((await from('2001:db8:1:2::1')).status).toBe(200)

    const off = await serveApp(createAppServer({ chat }), { port: 0, handleSignals: false, clock, rateLimit: false })
    served.push(off)
    for (let i = 0; i < 250; i++) expect((await fetch(new URL('/api/chat', off.url), { method: 'POST', body: '{}' })).status).toBe(200)
  })

  it('cuts off a client whose headers do not arrive within headersTimeoutMs', async () => {
    const s = await serveApp(app(), { staticDir: dist, port: 0, handleSignals: false, headersTimeoutMs: 500 })
    served.push(s)
    const { port } = new URL(s.url)
    const socket = connect(Number(port), '127.0.0.1')
    socket.on('error', () => {})
    let answer = ''
    socket.on('data', (d: Buffer) => (answer += d))
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n') // …and the rest never comes
    await new Promise((resolve) => socket.once('close', resolve))
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
  }, 20_000)

  it('answers a malformed Host with 400 BAD_REQUEST on the chat and MCP paths (nothing run), and keeps serving', async () => {
    const s = await serveApp(app(), { staticDir: dist, port: 0, handleSignals: false })
    served.push(s)
    const { port } = new URL(s.url)
    const raw = (head: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1')
        let answer = ''
        socket.on('data', (d: Buffer) => (answer += d))
        socket.on('error', () => resolve(answer))
        socket.on('close', () => resolve(answer))
        socket.once('connect', () => socket.write(`${head}\r\nConnection: close\r\n\r\n`))
      })
    for (const path of ['/api/chat', '/mcp']) {
      const answer = await raw(`POST ${path} HTTP/1.1\r\nHost: [::1\r\nContent-Length: 0`)
      expect(answer).toMatch(/^HTTP\/1\.1 400/)
      const body = JSON.parse(/\{.*\}/.exec(answer)![0]) as { code: string; message: string } // inside the chunked framing
      expect(body).toEqual({ code: 'BAD_REQUEST', message: expect.stringMatching(/^The request's Host header \("\[::1"\) or path is not a valid URL; .* Nothing was run\.$/) })
    }
    expect(await (await fetch(new URL('/api/chat', s.url), { method: 'POST', body: '{}' })).text()).toBe('chat POST /api/chat')
  }, 20_000)

  it('takes other paths, and answers 404 outside them without a static dir', async () => {
    const s = await serveApp(app(), { chatPath: '/chat', mcpPath: '/rpc', port: 0, handleSignals: false })
    served.push(s)
    expect(await (await fetch(new URL('/chat', s.url), { method: 'POST', body: '{}' })).text()).toBe('chat POST /chat')
    expect(await (await fetch(new URL('/rpc', s.url), { method: 'POST' })).text()).toBe('mcp')
    const missing = await fetch(new URL('/api/chat', s.url))
    expect([missing.status, (await missing.json()).code]).toEqual([404, 'NOT_FOUND'])
  })

  it('refuses bad definitions and options with errors that say what to write', async () => {
    expect(() => createAppServer({ chat: 'nope' } as never)).toThrow(OptionsError)
    expect(() => createAppServer({ chat: async () => new Response(), mcp: {} } as never)).toThrow(
      /createAppServer: invalid options:\n  - mcp: an MCP HTTP handler, createMcpServer\(\.\.\.\)\.createHandler\(\) \(got object\)/,
    )
    expect(() => createAppServer({ chat: async () => new Response(), model: 1 } as never)).toThrow(/model: unknown key \(known: chat, mcp, close\)/)
    await expect(serveApp({ chat: async () => new Response() } as never)).rejects.toThrow(/takes the value of createAppServer/)
    await expect(serveApp(app(), { port: 70_000 })).rejects.toThrow(OptionsError)
    // One class for every option of the library: a stable code, the function and the option it names.
    await expect(serveApp(app(), { port: 70_000 })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', fn: 'serveApp', option: 'port' })
    await expect(serveApp(app(), { chatPath: 'api' })).rejects.toThrow(/chatPath: a path starting with "\/"/)
    await expect(serveApp(app(), { staticDir: join(dist, 'nope'), port: 0 })).rejects.toThrow(/is not a directory; build the client first/)
  })

  it('says which port is taken', async () => {
    const blocker = createServer()
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r))
    const port = (blocker.address() as { port: number }).port
    try {
      await expect(serveApp(app(), { port, handleSignals: false })).rejects.toThrow(ServeAppListenError)
      await expect(serveApp(app(), { port, handleSignals: false })).rejects.toThrow(`Port ${port} on 127.0.0.1 is in use`)
    } finally {
      blocker.close()
    }
  })
})
