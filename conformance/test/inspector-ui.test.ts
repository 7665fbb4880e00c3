/**
 * A plain MCP form, as a person sees it in the MCP Inspector's web UI (2.12, Node ≥ 22.19) in
 * Chromium: the playground's plan_trip, served without its view, asks which activity — and the
 * Inspector's own form offers the activities by name (its `.plainForm()` choices), with no JSON in
 * the question; picking one completes the call. (Issue 37: what a client without our UI shows.)
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMcpServer } from '@mcp-bridge/runtime/mcp'
import { planTrip } from '../../playground/src/tools/plan-trip/tool.ts'
import { launchChromium } from '../../playground/test/support/browser.ts'
import { freePort } from '../../packages/runtime/test/support/redis-server.ts'
import { cached, node22 } from './support/node22.ts'

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0'
const LAUNCHER = 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js'

const mcp = createMcpServer({ name: 'plain-form', version: '1.0.0', tools: [planTrip] })
const http = createServer(mcp.createHandler().node)
const storage = mkdtempSync(join(tmpdir(), 'mcp-bridge-inspector-'))
let inspector: ChildProcess | undefined
let inspectorUrl: string
let browser: Browser

beforeAll(async () => {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const serverUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`
  const launcher = join(cached('inspector', INSPECTOR, LAUNCHER), LAUNCHER)
  const env = {
    ...process.env,
    CLIENT_PORT: String(await freePort()),
    MCP_SANDBOX_PORT: String(await freePort()),
    MCP_AUTO_OPEN_ENABLED: 'false',
    MCP_STORAGE_DIR: storage,
    MCP_INSPECTOR_SECRET_STORE: 'memory',
  }
  inspector = spawn(node22(), [launcher, '--web', '--transport', 'http', '--server-url', serverUrl], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  inspectorUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the Inspector did not start within 60 s:\n${out}`)), 60_000)
    const read = (chunk: Buffer) => {
      out += chunk
      const found = /http:\/\/127\.0\.0\.1:\d+\?MCP_INSPECTOR_API_TOKEN=[0-9a-f]+/.exec(out)
      if (found) resolve((clearTimeout(timer), found[0]))
    }
    inspector!.stdout!.on('data', read)
    inspector!.stderr!.on('data', read)
    inspector!.once('exit', (code) => reject((clearTimeout(timer), new Error(`the Inspector exited (${code}):\n${out}`))))
  })
  browser = await launchChromium()
}, 360_000)

afterAll(async () => {
  await browser?.close()
  inspector?.kill()
  http.closeAllConnections()
  await new Promise((resolve) => http.close(resolve))
  await mcp.close()
  rmSync(storage, { recursive: true, force: true })
})

describe("the MCP Inspector's form for plan_trip", () => {
  it('offers the activities by name, shows no JSON, and the pick completes the call', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage()
    await page.goto(inspectorUrl)
    await page.getByText('Disconnected').waitFor({ timeout: 30_000 })
    await page.locator('input[type=checkbox]').first().check({ force: true })
    await page.getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 })
    await page.getByText('Tools', { exact: true }).click()
    await page.getByText('plan_trip').first().click()
    const boxes = page.getByRole('textbox')
    await boxes.nth(1).fill('Oslo') // city (the first box searches the tools)
    await boxes.nth(2).fill('2026-12-05') // date
    await page.getByRole('button', { name: 'Execute Tool' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText('Elicitation Request').waitFor({ timeout: 30_000 })
    const question = await dialog.innerText()
    expect(question).toContain('What would you like to do in Oslo?')
    expect(question).not.toMatch(/x-model-context|application\/json|"activities"/)
    await dialog.getByText('activityId').locator('xpath=following::input[1]').click()
    expect(await page.getByRole('option').allInnerTexts()).toEqual([
      'Oslo museum pass — 3 h, $25',
      'Oslo harbour boat tour — 2 h, $40',
      'Oslo food market walk — 2 h, $30',
      'Oslo city hills hike — 4 h, free',
    ])
    await page.getByRole('option', { name: 'Oslo harbour boat tour — 2 h, $40' }).click()
    await dialog.getByRole('button', { name: 'Submit' }).click()
    await page.getByText('Results').waitFor({ timeout: 30_000 })
    const results = await page.locator('body').innerText()
    expect(results).toContain('"planned": true')
    expect(results).toContain('"activity": "Oslo harbour boat tour"')
  }, 120_000)
})
