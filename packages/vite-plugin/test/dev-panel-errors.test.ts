/**
 * The dev panel says a failure as every surface does: a stable code and a sentence to the page,
 * the details — a store's address, the driver's words, a stack — to the dev server's terminal.
 */
import { createServer, type Server } from 'node:http'
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
