/**
 * The split against tool files written the ways people write them (fixtures/split-shapes: a
 * helper beside `execute`, an arrow const over an AsyncLocalStorage, a class, module state, an
 * object of handlers, a re-export, namespace and side-effect imports, env reads, a helper both
 * sides use, one only the plugin uses, JSX, type-only imports, a dynamic import, top-level await,
 * a handoff, a `.server` module). Every server-only thing in them carries `SERVERONLY`; what the
 * client must keep carries `CLIENTKEPT`. A real client build is scanned, JS and source maps, and
 * loaded in Chromium, as is the dev server's page.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import react from '@vitejs/plugin-react'
import { build, createServer, preview, type PreviewServer, type ViteDevServer } from 'vite'
import type { Browser } from 'playwright-core'
import { mcpBridge } from '../src/index.ts'
import { fixtureCopies } from './support/fixtures.ts'
import { launchChromium } from '../../../playground/test/support/browser.ts'

const copies = fixtureCopies()
let browser: Browser
let root: string
let outDir: string

/** What must never be in a client file: the fixture's markers, the built-ins and the env. */
const SERVER_ONLY = /SERVERONLY|AsyncLocalStorage|node:(?:fs|os|crypto|path|async_hooks|timers)|readFileSync|createHash|process\.env\b(?!\.NODE_ENV)/

const SHAPES = 17

function outputFiles(dir: string): { file: string; text: string }[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.(m?js|css|map|html)$/.test(f)).map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }))
}

/** The page's report: how many plugins registered, and what each handler answered. */
async function loadPage(url: string): Promise<{ report: { plugins: number; fare: string; answers: Record<string, unknown> }; errors: string[]; text: string }> {
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
  try {
    await page.goto(url, { timeout: 60_000 })
    const report = JSON.parse((await page.locator('#shapes').textContent({ timeout: 60_000 })) ?? '{}')
    await page.getByText('CLIENTKEPT_12').waitFor({ timeout: 30_000 })
    return { report, errors, text: await page.locator('body').innerText() }
  } finally {
    await page.close()
  }
}

beforeAll(async () => {
  browser = await launchChromium()
  root = copies.copy('split-shapes')
  outDir = join(root, 'dist')
  await build({ root, configFile: false, logLevel: 'silent', plugins: [react(), mcpBridge()], build: { outDir, emptyOutDir: true, minify: false, sourcemap: true } })
}, 180_000)

afterAll(async () => {
  await browser?.close()
  copies.removeAll()
})

describe('the split on tool files written the ways people write them', () => {
  it('ships no server-only token in any client JS, CSS or source map', () => {
    const files = outputFiles(outDir)
    expect(files.some((f) => f.file.endsWith('.map'))).toBe(true)
    const leaked = files.filter((f) => SERVER_ONLY.test(f.text)).map((f) => `${f.file}: ${SERVER_ONLY.exec(f.text)![0]}`)
    expect(leaked).toEqual([])
    // What the client needs is there: the shared helper, the plugin's own helper, the
    // re-exported one, the JSX component and the stylesheet a side-effect import brings.
    const all = files.map((f) => f.text).join('\n')
    for (const kept of ['CLIENTKEPT_06', 'CLIENTKEPT_08', 'CLIENTKEPT_10', 'CLIENTKEPT_11', 'CLIENTKEPT_12']) expect(all).toContain(kept)
    // The dynamic import went with the body: no chunk of its own.
    expect(files.map((f) => f.file).filter((f) => f.includes('dynamic'))).toEqual([])
  })

  it('loads every shape in Chromium from the built client, each handler answering', async () => {
    const server: PreviewServer = await preview({ root, configFile: false, logLevel: 'silent', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false } })
    try {
      const { report, errors, text } = await loadPage(server.resolvedUrls!.local[0]!)
      expect(errors).toEqual([])
      expect(report.plugins).toBe(SHAPES)
      expect(Object.keys(report.answers)).toHaveLength(SHAPES)
      expect(report.answers.shape_shared_helper).toEqual({ action: 'accept', content: { value: 'CLIENTKEPT_10 shape 10' } })
      expect(report.answers.shape_plugin_only_helper).toEqual({ action: 'accept', content: { value: 'CLIENTKEPT_11 shape 11' } })
      expect(report.answers.shape_env_reads).toEqual({ action: 'accept', content: { value: 'shape 09' } })
      expect(report.answers.shape_jsx_in_tool_file).toBe('rendered')
      expect(report.fare).toBe('CLIENTKEPT_06 12.00 EUR')
      expect(text).toContain('CLIENTKEPT_12')
    } finally {
      await new Promise<void>((done) => server.httpServer.close(() => done()))
    }
  }, 120_000)

  it('serves the same in dev: each tool module transformed without its server code, the page loading', async () => {
    const server: ViteDevServer = await createServer({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [react(), mcpBridge()],
      server: { host: '127.0.0.1', port: 0, strictPort: false },
    })
    try {
      await server.listen()
      const shapes = readdirSync(join(root, 'src/shapes')).filter((f) => /\.tsx?$/.test(f))
      expect(shapes).toHaveLength(SHAPES)
      for (const shape of shapes) {
        const out = await server.environments.client.transformRequest(`/src/shapes/${shape}`)
        expect(out?.code, shape).toBeTruthy()
        // The dev transform's code, and its source map's copy of the source.
        expect(SERVER_ONLY.exec(out!.code)?.[0], shape).toBeUndefined()
        const map = JSON.stringify(out!.map ?? {})
        expect(SERVER_ONLY.exec(map)?.[0], `${shape} (map)`).toBeUndefined()
      }
      const { report, errors } = await loadPage(server.resolvedUrls!.local[0]!)
      expect(errors).toEqual([])
      expect(report.plugins).toBe(SHAPES)
      expect(report.answers.shape_env_reads).toEqual({ action: 'accept', content: { value: 'shape 09' } })
    } finally {
      await server.close()
      rmSync(join(root, 'node_modules/.vite'), { recursive: true, force: true })
    }
  }, 180_000)
})
