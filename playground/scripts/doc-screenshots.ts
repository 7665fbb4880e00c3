/**
 * Regenerates the screenshot set in docs/screenshots/: the chat's main states (flight list, seat
 * map, confirmation, a refused answer, the generated form) on a desktop (1280×800) and a phone
 * (390×844), as a person sees them — the viewport, not the full page. Starts the playground's dev
 * server on a free port and drives headless Chromium. Run with `npm run docs:screenshots`
 * (tests never write into docs/). Then the same flight list as an MCP Apps view inside a host
 * (ext-apps' AppBridge, the harness the MCP Apps test uses), from the dev server's /mcp.
 */
import { mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { launchChromium } from '../test/support/browser.ts'
import { buildHostPage, openView } from '../test/support/mcp-apps-host.ts'
import { walkMainStates } from '../test/support/main-states.ts'
import { cleanEnv, freePort, startServer } from '../test/support/processes.ts'

const playground = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const target = resolve(playground, '../docs/screenshots')
const DEVICES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const

mkdirSync(target, { recursive: true })
const port = await freePort()
const dev = await startServer([resolve(playground, '../node_modules/vite/bin/vite.js'), '--strictPort', '--port', String(port)], {
  cwd: playground,
  env: cleanEnv(),
  ready: `127.0.0.1:${port}`,
  timeoutMs: 90_000,
  what: 'the playground dev server',
})
const browser = await launchChromium()
try {
  for (const [device, viewport] of Object.entries(DEVICES)) {
    // A context per device: its own storage, so each walk starts a new conversation.
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1, ...(device === 'phone' && { isMobile: true, hasTouch: true }) })
    const page = await context.newPage()
    await page.goto(`http://127.0.0.1:${port}/`, { timeout: 60_000 })
    await walkMainStates(page, async (state) => {
      if (state === 'empty-chat') return
      // Let the follow-latest scroll and the focus settle before the picture.
      await page.waitForTimeout(300)
      const path = join(target, `${device}-${state}.png`)
      await page.screenshot({ path })
      console.log(`wrote ${path}`)
    })
    await context.close()
  }
  await mcpAppsShot()
} finally {
  await browser.close()
  dev.child.kill()
}

async function mcpAppsShot(): Promise<void> {
  const client = new Client({ name: 'screenshot host', version: '1.0.0' }, { capabilities: { extensions: { 'io.modelcontextprotocol/ui': {} }, sampling: {} } })
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)))
  const read = await client.readResource({ uri: 'ui://mcp-bridge-playground/book_flight.html' })
  const html = (read.contents[0] as { text: string }).text
  const args = { from: 'Oslo', destination: 'Berlin' }
  const call = client.callTool({ name: 'book_flight', arguments: args }, { timeout: 120_000 })
  const context = await browser.newContext({ viewport: { width: 800, height: 560 }, deviceScaleFactor: 1 })
  const page = await context.newPage()
  await openView(page, await buildHostPage(), client, { html, tool: 'book_flight', args })
  await page
    .frameLocator('iframe[title="book_flight view"]')
    .getByRole('button', { name: /JetStream JS-501/ })
    .waitFor({ timeout: 60_000 })
  await page.waitForTimeout(300)
  const path = join(target, 'mcp-apps-flight-list.png')
  await page.screenshot({ path })
  console.log(`wrote ${path}`)
  await context.close()
  await client.close() // ends the call (the host went away)
  await call.catch(() => undefined)
}
