/**
 * Storybook's Vite builder over an app with mcpBridge() in its vite.config.ts (the report's app
 * kept Storybook beside its tools): adoption/app from the packed packages with Storybook 10 and
 * its React + Vite framework, a story file beside a tool (adoption/storybook/). `storybook build`
 * runs the app's config and the plugin in it: it passes without a word from mcp-bridge, the
 * story's chunk has the plugin and not the tool's body, and the built stories render in Chromium
 * without an error. What the builder and the browser decide, not Node: once per CI (vite.config.ts).
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, extname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exec } from './commands.ts'
import { packWorkspace } from './pack.ts'
import { launchChromium } from '../../playground/test/support/browser.ts'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const scratch = mkdtempSync(join(tmpdir(), 'mcp-bridge-storybook-'))
const app = join(scratch, 'app')
const out = join(scratch, 'storybook-static')

const PACKAGES = ['zod', 'effection', 'react', 'react-dom', 'vite@^8', '@vitejs/plugin-react', 'typescript', '@types/react', '@types/react-dom', '@types/node', 'storybook@^10', '@storybook/react-vite@^10']

beforeAll(async () => {
  const tarballs = await packWorkspace(repo, join(scratch, 'packs'))
  cpSync(join(repo, 'adoption/app'), app, { recursive: true, filter: (src) => !/[\\/](node_modules|dist|mcp-bridge)([\\/]|$)/.test(src.slice(repo.length)) })
  mkdirSync(join(app, '.storybook'))
  cpSync(join(repo, 'adoption/storybook/main.ts'), join(app, '.storybook/main.ts'))
  cpSync(join(repo, 'adoption/storybook/NameForm.stories.tsx'), join(app, 'src/tools/greet/NameForm.stories.tsx'))
  const install = await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...Object.values(tarballs), ...PACKAGES], { cwd: app, timeoutMs: 300_000 })
  expect(install.code, install.output).toBe(0)
}, 420_000)

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** The built Storybook on 127.0.0.1, as any static host serves it. */
async function serveStatic(root: string): Promise<{ url: string; server: Server }> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2' }
  const server = createServer((req, res) => {
    const path = join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname))
    try {
      const body = readFileSync(path.endsWith('/') ? join(path, 'index.html') : path)
      res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

describe('Storybook over an app with the plugin', () => {
  it('storybook build passes with the plugin in the app config; the story has the plugin, not the tool body; the stories render in Chromium', async () => {
    const build = await exec(process.execPath, [join(app, 'node_modules/storybook/dist/bin/dispatcher.js'), 'build', '--quiet', '-o', out], { cwd: app, timeoutMs: 240_000 })
    expect(build.code, build.output).toBe(0)
    expect(build.output).not.toMatch(/\[mcp-bridge\]|mcp-bridge: /) // the plugin's warnings and errors
    const assets = join(out, 'assets')
    const story = readdirSync(assets).find((f) => f.startsWith('NameForm.stories'))!
    const shipped = readFileSync(join(assets, story), 'utf8')
    expect(shipped).toContain('askName')
    expect(shipped).not.toContain('Who should I greet?')

    const { url, server } = await serveStatic(out)
    const browser = await launchChromium()
    try {
      const page = await browser.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => void errors.push(String(e)))
      await page.goto(`${url}/iframe.html?id=greet-nameform--empty&viewMode=story`)
      await page.getByRole('button', { name: 'Greet' }).waitFor({ timeout: 30_000 })
      await page.goto(`${url}/iframe.html?id=greet-nameform--with-the-plugin&viewMode=story`)
      await page.getByText('greet handles: askName').waitFor({ timeout: 30_000 })
      expect(errors).toEqual([])
    } finally {
      await browser.close()
      server.close()
    }
  }, 360_000)
})
