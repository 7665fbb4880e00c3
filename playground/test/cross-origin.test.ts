/**
 * The client hosted apart from the chat (static hosting of dist/client, the chat on its own
 * origin): a page in Chromium on one origin uses the chat endpoint on another, listed in
 * `allowedOrigins`. The browser's preflight is answered and the streamed turn can be read; a
 * page of an origin not listed is refused before anything runs.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChatHandler, toNodeListener } from '@mcp-bridge/runtime/server'
import { createScriptedModel } from '@mcp-bridge/runtime/testing'
import { launchChromium } from './support/browser.ts'

let browser: Browser
const servers: Server[] = []

async function listen(server: Server, host: string): Promise<string> {
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return `http://${host}:${(server.address() as AddressInfo).port}`
}

/** A page that asks the chat one question and shows what it read (or the error the browser gave). */
const PAGE = (chat: string) => `<!doctype html><html><body><pre id="out">…</pre><script>
fetch(${JSON.stringify(chat)}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] }) })
  .then((r) => r.text())
  .then((t) => { document.getElementById('out').textContent = t }, (e) => { document.getElementById('out').textContent = 'failed: ' + e.message })
</script></body></html>`

beforeAll(async () => {
  browser = await launchChromium()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  for (const s of servers) await new Promise((r) => s.close(r))
})

describe('the chat on another origin than its page', () => {
  it('answers the preflight and lets a listed origin read the stream; refuses one not listed', async () => {
    // The page's origin uses "localhost", the chat's "127.0.0.1": two origins, both loopback, so
    // the chat is told which page origins it serves (a loopback one would pass by default).
    const pages = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE(`${chatUrl}/api/chat`)))
    const pageOrigin = await listen(pages, 'localhost')
    const model = createScriptedModel({ onUserMessage: [{ match: /hello/, reply: { text: 'Hi from the other origin.' } }] })
    const chat = createChatHandler({ tools: [], model, allowedOrigins: [pageOrigin] })
    const chatServer = createServer(toNodeListener(chat))
    const chatUrl = await listen(chatServer, '127.0.0.1')

    const page = await browser.newPage()
    try {
      await page.goto(`${pageOrigin}/`)
      await page.waitForFunction(() => document.getElementById('out')?.textContent !== '…', undefined, { timeout: 30_000 })
      const text = (await page.textContent('#out'))!
      expect(text).toContain('Hi from the other origin.')
      expect(text).toContain('"type":"conversation_state"')

      // The same page from an origin the chat does not list: the browser gets no readable answer.
      const other = createChatHandler({ tools: [], model, allowedOrigins: ['https://app.example.com'] })
      const otherServer = createServer(toNodeListener(other))
      const otherUrl = await listen(otherServer, '127.0.0.1')
      const refused = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE(`${otherUrl}/api/chat`)))
      await page.goto(`${await listen(refused, 'localhost')}/`)
      await page.waitForFunction(() => document.getElementById('out')?.textContent !== '…', undefined, { timeout: 30_000 })
      expect(await page.textContent('#out')).toMatch(/^failed: /)
      await other.close()
    } finally {
      await page.close()
      await chat.close()
    }
  }, 120_000)
})
