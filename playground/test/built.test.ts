/**
 * The playground built and served as a deployment serves it — under plain Node, by `vite
 * preview`, as a cluster of instances on one Redis behind a round-robin proxy, with telemetry —
 * and walked in headless Debian Chromium. (The playground in its dev server: browser-ui.test.ts.)
 */
import type { ChildProcess } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { tmpdir } from 'node:os'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { bookOsloToBerlin } from './support/booking.ts'
import { usePagePerTest } from './support/page-per-test.ts'
import { cleanEnv, freePort, run, startServer } from './support/processes.ts'
import { startPostgres } from '../../packages/runtime/test/support/postgres-server.ts'
import { requester } from '../../packages/runtime/test/mcp/support/tasks-wire.ts'
import { fillPlainForm, type PlainForm } from './support/plain-form-fill.ts'

const playground = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const results = join(playground, 'test-results', 'built')

const chromium = usePagePerTest(results)
let browser: Browser
let page: Page
beforeAll(() => {
  browser = chromium.browser
})
beforeEach(() => {
  page = chromium.page
})

const send = (text: string) => chromium.send(text)

/** `npm run start:cluster` as it runs it: two instances on one Redis behind a round-robin proxy (uses the build). */
async function startCluster() {
  const port = await freePort()
  const cluster = await startServer(['scripts/cluster.mjs'], {
    cwd: playground,
    env: cleanEnv({ PORT: String(port) }),
    ready: `cluster: http://127.0.0.1:${port}/`,
    timeoutMs: 60_000,
    what: 'scripts/cluster.mjs',
  })
  return { port, cluster }
}

describe('the built playground (npm run build && npm run serve)', () => {
  let built: ChildProcess | undefined
  afterAll(() => void built?.kill())
  const vite = resolve(playground, '../node_modules/vite/bin/vite.js')

  it('vite build emits the client and dist/server/index.js, which serves both under plain Node; a flight is booked', async () => {
    await run([vite, 'build', '--logLevel', 'error'], { cwd: playground, env: cleanEnv(), timeoutMs: 90_000, what: 'vite build' })
    // The dev panel is never part of a build.
    const shipped = readdirSync(join(playground, 'dist/client/assets'))
      .map((f) => readFileSync(join(playground, 'dist/client/assets', f), 'utf8'))
      .join('\n')
    expect(shipped).not.toContain('__mcp-bridge')
    expect(shipped).not.toContain('mcp-bridge dev panel')
    const port = await freePort()
    built = (
      await startServer(['dist/server/index.js'], {
        cwd: playground,
        env: cleanEnv({ PORT: String(port) }),
        ready: `127.0.0.1:${port}`,
        timeoutMs: 30_000,
        what: 'dist/server/index.js',
      })
    ).child
    await page.goto(`http://127.0.0.1:${port}/`)
    await send('Book a flight from Oslo to Berlin')
    await page.getByRole('button', { name: /JetStream JS-501/ }).click()
    await page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
    await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
    expect(await page.getByLabel('Booking confirmation').innerText()).toMatch(/TK-JS-501-3B/)
  }, 120_000)

  // Uses the build of the test above (tests in a file run in order).
  it('vite preview serves the built chat beside the built client; a flight is booked', async () => {
    const port = await freePort()
    const preview = await startServer([vite, 'preview', '--strictPort', '--port', String(port)], {
      cwd: playground,
      env: cleanEnv(),
      ready: `127.0.0.1:${port}`,
      timeoutMs: 30_000,
      what: 'vite preview',
    })
    try {
      await page.goto(`http://127.0.0.1:${port}/`)
      await bookOsloToBerlin(page)
    } finally {
      preview.child.kill('SIGTERM')
    }
  }, 120_000)

  // Uses the build of the first test (tests in a file run in order).
  it('with OTEL_EXPORTER_OTLP_ENDPOINT set, the built server sends its traces to that collector: a booking arrives as one trace of turns, model calls, the tool call, its waits', async () => {
    // A collector as small as can be: it keeps what arrives at /v1/traces (OTLP over HTTP, JSON).
    const received: string[] = []
    const collector = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString()))
      req.on('end', () => {
        if (req.url === '/v1/traces') received.push(body)
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      })
    })
    await new Promise<void>((ready) => collector.listen(0, '127.0.0.1', ready))
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`
    const port = await freePort()
    const server = await startServer(['dist/server/index.js'], {
      cwd: playground,
      env: cleanEnv({ PORT: String(port), OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }),
      ready: `127.0.0.1:${port}`,
      timeoutMs: 30_000,
      what: 'dist/server/index.js',
    })
    try {
      await page.goto(`http://127.0.0.1:${port}/`)
      await bookOsloToBerlin(page)
      const spans = () =>
        received.flatMap((body) => {
          const data = JSON.parse(body) as {
            resourceSpans: Array<{
              resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> }
              scopeSpans: Array<{ spans: Array<{ name: string; traceId: string }> }>
            }>
          }
          return data.resourceSpans.flatMap((r) =>
            r.scopeSpans.flatMap((s) => s.spans.map((span) => ({ ...span, service: r.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue }))),
          )
        })
      await expect.poll(() => spans().filter((s) => s.name === 'execute_tool book_flight').length, { timeout: 15_000 }).toBeGreaterThanOrEqual(3)
      const all = spans()
      const call = all.filter((s) => s.name === 'execute_tool book_flight')
      expect(new Set(call.map((s) => s.traceId)).size).toBe(1)
      const trace = all.filter((s) => s.traceId === call[0]!.traceId).map((s) => s.name)
      expect(trace).toEqual(expect.arrayContaining(['invoke_agent mcp-bridge', 'chat scripted-demo', 'await_input pickFlight', 'await_input pickSeat']))
      expect(all.every((s) => s.service === 'mcp-bridge-playground')).toBe(true)
    } finally {
      server.child.kill('SIGTERM')
      collector.close()
    }
  }, 120_000)

  // Uses the build of the first test. Postgres's driver is plain JavaScript: once, on the first Node of CI's.
  it.skipIf(process.env.MCP_BRIDGE_NODE_ONLY === '1')(
    'with DATABASE_URL, the built server keeps its calls in Postgres: a booking asked before a restart is answered after it',
    async () => {
      const postgres = await startPostgres()
      const port = await freePort()
      const env = cleanEnv({ PORT: String(port), DATABASE_URL: postgres.url })
      const serve = () => startServer(['dist/server/index.js'], { cwd: playground, env, ready: `127.0.0.1:${port}`, timeoutMs: 30_000, what: 'dist/server/index.js' })
      let server = await serve()
      const pool = postgres.pool({ max: 1 })
      try {
        await page.goto(`http://127.0.0.1:${port}/`)
        await send('Book a flight from Oslo to Berlin')
        await page.getByRole('button', { name: /JetStream JS-501/ }).click()
        await page.getByRole('grid', { name: 'Cabin' }).waitFor()
        // The waiting call is a row in Postgres, not in the SQLite file.
        const waiting = await pool.query(`SELECT status, record FROM mcp_bridge.calls`)
        expect(waiting.rows.map((r: { status: string }) => r.status)).toEqual(['waiting'])
        server.child.kill('SIGTERM')
        await new Promise((r) => server.child.once('exit', r))
        server = await serve()
        await page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
        await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
        await page.getByText(/You're booked! Ticket TK-JS-501-3B/).waitFor({ timeout: 15_000 })
        const done = await pool.query(`SELECT status FROM mcp_bridge.calls`)
        expect(done.rows.map((r: { status: string }) => r.status)).toEqual(['completed'])
      } finally {
        // The app stops before its database, as in a deployment.
        server.child.kill('SIGTERM')
        if (server.child.exitCode === null && server.child.signalCode === null) await new Promise((r) => server.child.once('exit', r))
        await postgres.stop()
      }
    },
    120_000,
  )

  // Uses the build of the first test (tests in a file run in order).
  it('an MCP client that knows nothing of mcp-bridge books a flight as a task: the official requester (ext-tasks) answers the plain forms tasks/get shows', async () => {
    const port = await freePort()
    const env = cleanEnv({ PORT: String(port) })
    const server = await startServer(['dist/server/index.js'], { cwd: playground, env, ready: `127.0.0.1:${port}`, timeoutMs: 30_000, what: 'dist/server/index.js' })
    const client = await requester(new URL(`http://127.0.0.1:${port}/mcp`), (params) => ({ action: 'accept', content: fillPlainForm(params as unknown as PlainForm) }))
    try {
      const execution = await client.session.callTool('book_flight', { from: 'Oslo', destination: 'Berlin' })
      const { outcome } = await execution.settle()
      expect(outcome.status).toBe('completed')
      const text = outcome.status === 'completed' ? (outcome.result as { content: Array<{ text?: string }> }).content.map((c) => c.text).join('\n') : ''
      expect(text).toMatch(/TK-/)
      // Every question reached it through tasks/get and went back by tasks/update.
      expect(client.seen.length).toBeGreaterThanOrEqual(2)
      expect(new Set(client.seen.map((s) => s.delivery))).toEqual(new Set(['task-update']))
    } finally {
      await client.close()
      server.child.kill('SIGTERM')
    }
  }, 60_000)

  // Uses the build of the first test (tests in a file run in order).
  it('with the server down: an answer shows the error in its component, a message is marked Not sent; when the server is back both go through', async () => {
    const port = await freePort()
    const env = cleanEnv({ PORT: String(port) })
    const serve = () => startServer(['dist/server/index.js'], { cwd: playground, env, ready: `127.0.0.1:${port}`, timeoutMs: 30_000, what: 'dist/server/index.js' })
    let server = await serve()
    try {
      await page.goto(`http://127.0.0.1:${port}/`)
      await send('Book a flight from Oslo to Berlin')
      await page.getByRole('button', { name: /JetStream JS-501/ }).click()
      await page.getByRole('grid', { name: 'Cabin' }).waitFor()
      server.child.kill('SIGTERM')
      await new Promise((r) => server.child.once('exit', r))

      await page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
      await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
      await page
        .getByRole('region', { name: /seat/i })
        .getByRole('alert')
        .filter({ hasText: /could not be delivered/ })
        .waitFor({ timeout: 15_000 })
      await page.getByRole('grid', { name: 'Cabin' }).waitFor() // still there, still answerable

      server = await serve() // back, on the same file: the call resumes from its journal
      await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
      await page.getByText(/You're booked! Ticket TK-JS-501-3B/).waitFor({ timeout: 15_000 })

      server.child.kill('SIGTERM')
      await new Promise((r) => server.child.once('exit', r))
      await send('hello')
      await page.getByText('Not sent.').waitFor({ timeout: 15_000 })
      server = await serve()
      await page.getByRole('button', { name: 'Retry' }).click()
      await page.getByText('Not sent.').waitFor({ state: 'detached', timeout: 15_000 })
      await page
        .getByText(/offline demo model/)
        .last()
        .waitFor({ timeout: 15_000 })
    } finally {
      server.child.kill('SIGTERM')
    }
  }, 120_000)

  // Uses the build of the test above (tests in a file run in order).
  it('npm run start:cluster: two instances on one Redis behind a round-robin proxy; a booking asked on one is answered on the other', async () => {
    const { port, cluster } = await startCluster()
    try {
      const served: string[] = []
      page.on('response', (r) => r.url().includes('/api/chat') && served.push(`${r.request().method()} ${r.headers()['x-served-by']}`))
      await page.goto(`http://127.0.0.1:${port}/`)
      await send('Book a flight from Oslo to Berlin')
      await page.getByRole('button', { name: /JetStream JS-501/ }).click()
      await page.getByRole('grid', { name: 'Cabin' }).waitFor()
      await page.reload()
      await page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
      await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
      await page.getByText(/You're booked! Ticket TK-JS-501-3B/).waitFor({ timeout: 30_000 })
      // Round robin: the flight list was asked by one instance and answered on the other.
      const posts = served.filter((s) => s.startsWith('POST')).map((s) => s.slice(5))
      expect(posts).toHaveLength(3)
      expect(posts[1]).not.toBe(posts[0])
      expect(new Set(posts)).toEqual(new Set(['A', 'B']))
      // The reload restored the conversation (the first load had a key made just then: nothing to ask for).
      expect(served.filter((s) => s.startsWith('GET'))).toHaveLength(1)
    } finally {
      cluster.child.kill('SIGTERM')
    }
  }, 120_000)

  // Uses the build of the tests above.
  it("signed in on the cluster: Ada's booking is asked on one instance, answered on the other, and in her name; Bob, holding her conversation's key and the call's token, sees nothing and can answer nothing", async () => {
    const { port, cluster } = await startCluster()
    const base = `http://127.0.0.1:${port}/`
    const signedIn = async (user: string) => {
      const context = await browser.newContext({ viewport: { width: 900, height: 1000 } })
      await context.addCookies([{ name: 'playground_user', value: user, url: base }])
      return { context, page: await context.newPage() }
    }
    const ada = await signedIn('ada')
    const bob = await signedIn('bob')
    try {
      const served: string[] = []
      ada.page.on('response', (r) => r.url().includes('/api/chat') && r.request().method() === 'POST' && served.push(r.headers()['x-served-by'] ?? '?'))
      await ada.page.goto(base)
      await expect(ada.page.getByLabel('Signed in as').inputValue()).resolves.toBe('ada')
      await ada.page.getByLabel('Message').fill('Book a flight from Oslo to Berlin')
      await ada.page.getByLabel('Message').press('Enter')
      await ada.page.getByRole('button', { name: /JetStream JS-501/ }).click()
      await ada.page.getByRole('grid', { name: 'Cabin' }).waitFor()

      // What Bob could steal from Ada's browser: her conversation's key, and through it the call's token.
      const key = JSON.parse((await ada.page.evaluate(() => localStorage.getItem('mcp-bridge:chat:playground')))!) as { id: string; secret: string }
      const snapshot = (await (await ada.context.request.get(`${base}api/chat?conversation=${key.id}`, { headers: { authorization: `Bearer ${key.secret}` } })).json()) as {
        messages: unknown[]
        events: Array<{ type: string; callId?: string; token?: string; request?: { id: string } }>
      }
      const call = snapshot.events.findLast((e) => e.type === 'tool_call')!
      const question = snapshot.events.findLast((e) => e.type === 'elicit_request')!
      expect(call.token).toBeTruthy()

      // Bob's page, with Ada's key planted in it, restores nothing of hers.
      await bob.page.addInitScript((k) => localStorage.setItem('mcp-bridge:chat:playground', k), JSON.stringify(key))
      await bob.page.goto(base)
      await bob.page.getByText('Try one of these:').waitFor({ timeout: 15_000 })
      await expect(bob.page.getByRole('grid', { name: 'Cabin' }).count()).resolves.toBe(0)
      expect((await bob.context.request.get(`${base}api/chat?conversation=${key.id}`, { headers: { authorization: `Bearer ${key.secret}` } })).status()).toBe(404)
      // Bob answering Ada's seat question with her call's token, on whichever instance: refused, nothing changed.
      for (let i = 0; i < 2; i++) {
        const refused = await bob.context.request.post(`${base}api/chat`, {
          data: {
            messages: snapshot.messages,
            elicitResponses: [{ callId: call.callId, elicitId: question.request!.id, token: call.token, result: { action: 'accept', content: { row: 1, seat: 'A' } } }],
          },
        })
        const events = (await refused.text())
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { type: string; code?: string })
        expect(events.find((e) => e.type === 'elicit_refused')).toMatchObject({ code: 'FORBIDDEN' })
      }

      // Ada's seat map is still hers: she books, on the other instance, in her name.
      await ada.page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
      await ada.page.getByRole('button', { name: 'Confirm seat 3B' }).click()
      await ada.page.getByText(/You're booked! Ticket TK-JS-501-3B/).waitFor({ timeout: 30_000 })
      await ada.page.getByLabel('Booking confirmation').getByText('Ada Lovelace').waitFor()
      expect(new Set(served)).toEqual(new Set(['A', 'B']))
      await ada.page.screenshot({ path: join(tmpdir(), 'mcp-bridge-signed-in-ada.png') })
    } finally {
      await ada.context.close()
      await bob.context.close()
      cluster.child.kill('SIGTERM')
    }
  }, 180_000)
})
