/**
 * The Vite plugin in dev, seen from a real browser: adding, renaming and deleting a tool file,
 * and adding a plugin, regenerate the outputs and the open page shows the change (through HMR
 * or the reload it falls back to) without anyone touching the page. Runs on a temporary copy
 * of fixtures/valid-basic with a tiny page that prints the generated manifest and registry.
 */
import { cpSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { createServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mcpBridge } from '@mcp-bridge/vite-plugin'
import { launchChromium } from './support/browser.ts'
import { freePort } from './support/processes.ts'
import { tempProject } from '../../packages/vite-plugin/test/support/fixtures.ts'

const fixtures = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../fixtures')
let root: string
let server: ViteDevServer
let browser: Browser
let page: Page
const pageErrors: string[] = []

const PAGE = `<!doctype html>
<html><body><p id="tools"></p><p id="plugins"></p><script type="module" src="/src/main.ts"></script></body></html>
`
const MAIN = `import manifest from './mcp-bridge/mcp-tools.json'
import { clientPlugins } from './mcp-bridge/client.gen.ts'

document.querySelector('#tools')!.textContent = manifest.tools.map((t) => t.name).join(',')
document.querySelector('#plugins')!.textContent = clientPlugins.map((p) => p.toolName).join(',')
`
const tool = (exportName: string, name: string) =>
  `import { createMcpTool } from '@mcp-bridge/runtime'\nexport const ${exportName} = createMcpTool('${name}').elicits({}).execute(function* () { return 1 })\n`

beforeAll(async () => {
  root = tempProject('dev-browser')
  cpSync(join(fixtures, 'valid-basic'), root, { recursive: true })
  writeFileSync(join(root, 'index.html'), PAGE)
  writeFileSync(join(root, 'src/main.ts'), MAIN)
  const port = await freePort()
  server = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [mcpBridge()],
    // The project is in the temp folder; the packages it links to are the repository's.
    server: { host: '127.0.0.1', port, strictPort: true, fs: { allow: [root, resolve(fixtures, '..')] } },
  })
  await server.listen()
  browser = await launchChromium()
  page = await browser.newPage()
  page.on('pageerror', (e) => pageErrors.push(e.message))
  await page.goto(`http://127.0.0.1:${port}/`, { timeout: 60_000 })
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  if (root) rmSync(root, { recursive: true, force: true })
})

/** Waits (bounded) until the page, by itself, shows these tool names and plugin tool names. */
async function pageShows(tools: string, plugins: string): Promise<void> {
  const read = () => page.evaluate(() => [document.querySelector('#tools')?.textContent, document.querySelector('#plugins')?.textContent])
  try {
    await page.waitForFunction(([t, p]) => document.querySelector('#tools')?.textContent === t && document.querySelector('#plugins')?.textContent === p, [tools, plugins], {
      timeout: 60_000,
    })
  } catch (error) {
    throw new Error(`The page shows ${JSON.stringify(await read().catch(() => 'nothing'))}, expected ${JSON.stringify([tools, plugins])}: ${(error as Error).message}`)
  }
}

describe('mcpBridge() in dev, in the browser', () => {
  it('shows added, renamed and deleted tools, and a new plugin, without a manual reload', async () => {
    await pageShows('book_flight,clock', 'book_flight')

    const weather = join(root, 'src/tools/weather.ts')
    writeFileSync(weather, tool('weather', 'weather'))
    await pageShows('book_flight,clock,weather', 'book_flight')

    writeFileSync(weather, tool('weather', 'forecast'))
    await pageShows('book_flight,clock,forecast', 'book_flight')

    const plugin = join(root, 'src/tools/weather-plugin.ts')
    writeFileSync(
      plugin,
      "import { createPlugin } from '@mcp-bridge/runtime'\nimport { weather } from './weather.ts'\nexport const weatherPlugin = createPlugin(weather).onElicit({}).build()\n",
    )
    await pageShows('book_flight,clock,forecast', 'book_flight,forecast')

    unlinkSync(plugin)
    unlinkSync(weather)
    await pageShows('book_flight,clock', 'book_flight')
    expect(pageErrors).toEqual([])
  }, 300_000)

  it('shows a schema error in the error overlay, keeps serving, and recovers when it is fixed', async () => {
    const overlayText = () => page.evaluate(() => document.querySelector('vite-error-overlay')?.shadowRoot?.textContent ?? null)
    const broken = join(root, 'src/tools/survey.ts')
    writeFileSync(
      broken,
      "import { createMcpTool } from '@mcp-bridge/runtime'\nimport { z } from 'zod'\n" +
        "export const survey = createMcpTool('survey').elicits({ about: z.object({ address: z.object({ city: z.string() }) }) }).execute(function* () { return 1 })\n",
    )
    await page.waitForFunction(() => (document.querySelector('vite-error-overlay')?.shadowRoot?.textContent ?? '').includes('nested objects are not allowed'), null, {
      timeout: 60_000,
    })
    expect(await overlayText()).toContain('src/tools/survey.ts:3:')

    writeFileSync(broken, tool('survey', 'survey'))
    await pageShows('book_flight,clock,survey', 'book_flight')
    await page.waitForFunction(() => document.querySelector('vite-error-overlay') === null, null, { timeout: 60_000 })
    unlinkSync(broken)
    await pageShows('book_flight,clock', 'book_flight')
    expect(pageErrors).toEqual([])
  }, 300_000)

  it('shows standing errors to a page opened after they were found (not only after the next edit)', async () => {
    const broken = join(root, 'src/tools/poll.ts')
    writeFileSync(
      broken,
      "import { createMcpTool } from '@mcp-bridge/runtime'\nimport { z } from 'zod'\n" +
        "export const poll = createMcpTool('poll').elicits({ about: z.object({ where: z.object({ city: z.string() }) }) }).execute(function* () { return 1 })\n",
    )
    // The open page gets it as it happens; then a second page, opened afterwards, gets it at once.
    await page.waitForFunction(() => (document.querySelector('vite-error-overlay')?.shadowRoot?.textContent ?? '').includes('nested objects are not allowed'), null, {
      timeout: 60_000,
    })
    const late = await browser.newPage()
    try {
      await late.goto(page.url(), { timeout: 60_000 })
      await late.waitForFunction(() => (document.querySelector('vite-error-overlay')?.shadowRoot?.textContent ?? '').includes('src/tools/poll.ts:3:'), null, { timeout: 30_000 })
    } finally {
      await late.close()
    }
    unlinkSync(broken)
    await pageShows('book_flight,clock', 'book_flight')
  }, 300_000)
})
