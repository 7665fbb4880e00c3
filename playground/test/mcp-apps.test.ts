/**
 * MCP Apps end to end: the playground built by `vite build` (into a folder of its own) and served
 * by `node <out>/server/index.js`; the official MCP client (SDK v2) connects to /mcp as a host that
 * renders views; the host page is ext-apps' own AppBridge in headless Chromium, with the view in a
 * sandboxed iframe. The person clicks inside the iframe; the tools/call, held open meanwhile,
 * returns the real result. No request leaves the page: the view is self-contained.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client, StreamableHTTPClientTransport, type CallToolResult, type ClientCapabilities } from '@modelcontextprotocol/client'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { launchChromium } from './support/browser.ts'
import { buildHostPage, openView } from './support/mcp-apps-host.ts'
import { cleanEnv, freePort, run, startServer } from './support/processes.ts'

const playground = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const results = join(playground, 'test-results')
const UI = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } }

let out: string
let server: ChildProcess | undefined
let mcpUrl: URL
let browser: Browser
let hostPage: string
let page: Page
const pages: Page[] = []
const clients: Client[] = []
/** Every request the page (host or view) made: none may reach the network. */
let requests: string[]

beforeAll(async () => {
  // Its own build folder (the e2e tests build into dist/ meanwhile), where the server still finds
  // the app's node_modules by walking up.
  mkdirSync(join(playground, 'node_modules/.cache'), { recursive: true })
  out = mkdtempSync(join(playground, 'node_modules/.cache/mcp-apps-build-'))
  const vite = resolve(playground, '../node_modules/vite/bin/vite.js')
  await run([vite, 'build', '--logLevel', 'error', '--outDir', out], { cwd: playground, env: cleanEnv(), timeoutMs: 120_000, what: 'vite build' })
  const port = await freePort()
  server = (
    await startServer([join(out, 'server/index.js')], {
      cwd: playground,
      env: cleanEnv({ PORT: String(port) }),
      ready: `127.0.0.1:${port}`,
      timeoutMs: 30_000,
      what: 'the built server',
    })
  ).child
  mcpUrl = new URL(`http://127.0.0.1:${port}/mcp`)
  ;[browser, hostPage] = await Promise.all([launchChromium(), buildHostPage()])
}, 240_000)

afterAll(async () => {
  // Pages stay open until here so a failed test's screenshot can still be taken.
  for (const p of pages)
    await p
      .context()
      .close()
      .catch(() => {})
  for (const c of clients) await c.close().catch(() => {})
  await browser?.close()
  server?.kill()
  if (out) rmSync(out, { recursive: true, force: true })
})

beforeEach(async (context) => {
  page = await (await browser.newContext({ viewport: { width: 800, height: 900 } })).newPage()
  pages.push(page)
  requests = []
  page.on('request', (r) => requests.push(r.url()))
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  ;(page as Page & { errors: string[] }).errors = errors
  context.onTestFailed(async () => {
    mkdirSync(results, { recursive: true })
    await page.screenshot({ path: join(results, `mcp-apps-${context.task.name.replace(/[^\w-]+/g, '-')}.png`), fullPage: true }).catch(() => {})
  })
})

afterEach(() => {
  expect((page as Page & { errors: string[] }).errors).toEqual([])
  expect(requests.filter((url) => !/^(about:|data:)/.test(url))).toEqual([])
})

async function connect(capabilities: ClientCapabilities, pin?: '2026-07-28'): Promise<Client> {
  const client = new Client({ name: 'test-host', version: '1.0.0' }, { capabilities, ...(pin && { versionNegotiation: { mode: { pin } } }) })
  await client.connect(new StreamableHTTPClientTransport(mcpUrl))
  clients.push(client)
  return client
}

async function viewOf(client: Client, tool: string): Promise<string> {
  const listed = (await client.listTools()).tools.find((t) => t.name === tool)
  const uri = (listed?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri
  expect(uri).toBe(`ui://mcp-bridge-playground/${tool}.html`)
  const read = await client.readResource({ uri: uri! })
  expect(read.contents[0]?.mimeType).toBe('text/html;profile=mcp-app')
  return (read.contents[0] as { text: string }).text
}

const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('')

describe('MCP Apps in a host (ext-apps AppBridge in Chromium, official MCP client)', () => {
  it('book_flight: the flight list and seat map render in the view; clicks in the iframe book the flight and the result reaches the host', async () => {
    // A host with views and no forms at all: only the view can ask. (book_flight asks the
    // client's model for a travel tip at the end, so it samples.)
    const client = await connect({ extensions: UI, sampling: {} })
    client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'Take the airport train.' }, model: 'test' }))
    const html = await viewOf(client, 'book_flight')
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/i) // everything inline
    const args = { from: 'Oslo', destination: 'Berlin' }
    const call = client.callTool({ name: 'book_flight', arguments: args }, { timeout: 120_000 }) as Promise<CallToolResult>
    await openView(page, hostPage, client, { html, tool: 'book_flight', args })

    const view = page.frameLocator('iframe[title="book_flight view"]')
    await view.getByRole('button', { name: /JetStream JS-501/ }).click({ timeout: 30_000 })
    await view.getByRole('button', { name: 'Seat 3B', exact: true }).click({ timeout: 30_000 })
    await view.getByRole('button', { name: 'Confirm seat 3B' }).click()
    const result = await call
    expect(result.isError).toBeFalsy()
    expect(textOf(result)).toMatch(/TK-JS-501-3B/)

    await page.evaluate((r) => (window as unknown as { deliverResult(r: unknown): Promise<void> }).deliverResult(r), result as never)
    await view.getByText(/^Done: /).waitFor({ timeout: 30_000 })
    expect(await view.getByRole('status').innerText()).toMatch(/TK-JS-501-3B/)
  }, 180_000)

  it('choose_color: an invalid answer shows its error inside the view and is never sent; a valid one completes the call', async () => {
    const client = await connect({ extensions: UI, elicitation: { form: {} } })
    const html = await viewOf(client, 'choose_color')
    const call = client.callTool({ name: 'choose_color', arguments: { purpose: 'the dashboard' } }, { timeout: 120_000 }) as Promise<CallToolResult>
    await openView(page, hostPage, client, { html, tool: 'choose_color', args: { purpose: 'the dashboard' } })

    const view = page.frameLocator('iframe[title="choose_color view"]')
    await view.getByLabel('Hex color').fill('#12345g', { timeout: 30_000 })
    await view.getByRole('button', { name: 'Use this color' }).click()
    expect(await view.getByRole('alert').first().innerText()).toBe('Use a hex color like #3b82f6')
    await view.getByLabel('Hex color').fill('#10b981')
    await view.getByRole('button', { name: 'Use this color' }).click()
    const result = await call
    expect(result.structuredContent).toEqual({ chosen: true, color: '#10b981', name: null })
  }, 180_000)
})

describe('the same tools for clients without the extension', () => {
  it('an SDK v2 client on 2026-07-28 completes book_flight through input-required rounds, and is shown no view tools', async () => {
    const client = await connect({ elicitation: { form: {} }, sampling: {} }, '2026-07-28')
    client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'Take the airport train.' }, model: 'test' }))
    const asked: string[] = []
    client.setRequestHandler('elicitation/create', async (request) => {
      const { requestedSchema } = request.params as { requestedSchema: { properties: Record<string, unknown> } }
      asked.push(Object.keys(requestedSchema.properties).join(','))
      const content: Record<string, string | number> = 'flightId' in requestedSchema.properties ? { flightId: 'JS-501' } : { row: 4, seat: 'C' }
      return { action: 'accept' as const, content }
    })
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).toContain('book_flight')
    expect(names.filter((n) => n.startsWith('mcp_bridge_view'))).toEqual([])
    const result = (await client.callTool({ name: 'book_flight', arguments: { from: 'Oslo', destination: 'Berlin' } }, { timeout: 60_000 })) as CallToolResult
    expect(textOf(result)).toMatch(/TK-JS-501-4C/)
    expect(asked).toEqual(['flightId', 'row,seat'])
  }, 120_000)
})
