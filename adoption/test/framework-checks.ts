/**
 * What a framework app with the greet tool must do wherever it runs (dev, a production server):
 * answer the question in Chromium with the plugin's form, and over MCP with the official client.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client'
import type { Browser } from 'playwright-core'
import { expect } from 'vitest'

/** The chat in Chromium: ask for a greeting, answer with the plugin's form, see the result; no console error. */
export async function greetInBrowser(browser: Browser, base: string, name: string): Promise<void> {
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())))
  page.on('pageerror', (e) => void errors.push(String(e)))
  try {
    await page.goto(base)
    await page.getByLabel('Message').fill('Please greet someone')
    await page.getByRole('button', { name: 'Send' }).click()
    await page.getByLabel('Name').fill(name)
    await page.getByRole('button', { name: 'Greet' }).click()
    await page.getByText(`Hello, ${name}!`).first().waitFor({ timeout: 30_000 })
    expect(errors).toEqual([])
  } finally {
    await page.close()
  }
}

/** greet over the app's /mcp route with the official MCP client, which answers the question itself. */
export async function greetOverMcp(base: string, name: string): Promise<string> {
  const client = new Client({ name: 'framework-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } })
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept' as const, content: { name } }))
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base)))
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['greet'])
    const result = (await client.callTool({ name: 'greet', arguments: {} }, { timeout: 60_000 })) as CallToolResult
    return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
  } finally {
    await client.close()
  }
}
